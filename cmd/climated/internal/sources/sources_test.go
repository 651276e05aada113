package sources

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/i2c"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/sensors/hw"
	"github.com/climated/climated/sensors/raingauge"
)

func noBus(name string) (i2c.BusCloser, error) {
	return nil, fmt.Errorf("/dev/i2c-%s: %w", name, hw.ErrNoBus)
}

func deniedBus(name string) (i2c.BusCloser, error) {
	return nil, fmt.Errorf("/dev/i2c-%s: %w", name, hw.ErrPermission)
}

func TestBuildSources(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	ctx := context.Background()

	// Nothing configured, no bus: the demo house, and the log says why.
	set, err := Build(ctx, config.Default(), Deps{Log: log, Seams: Seams{OpenBus: noBus}})
	if err != nil {
		t.Fatal(err)
	}
	if set.House == nil || !set.Simulated || !slices.Equal(set.Zones, []string{"Indoor", "Bedroom", "Balcony", "Rain"}) {
		t.Errorf("no bus: %+v", set)
	}
	for _, want := range []string{"no I²C bus to scan", "running the demo house (simulated data)"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs.String())
		}
	}

	// demo: enabled: false means no demo house, also without
	// any sensor; the log says the hub has no zone and what gives it one.
	logs.Reset()
	off := config.Default()
	off.Demo.Enabled = new(false)
	set, err = Build(ctx, off, Deps{Log: log, Seams: Seams{OpenBus: noBus}})
	if err != nil || set.House != nil || set.Simulated || len(set.Sources) != 0 || len(set.Zones) != 0 {
		t.Errorf("demo: enabled: false: %+v %v", set, err)
	}
	if !strings.Contains(logs.String(), "demo: enabled: false: the hub has no zone") {
		t.Errorf("log with demo off and no sensor:\n%s", logs.String())
	}

	// Sensors and a rain gauge configured: they run, the demo does not.
	cfg := config.Default()
	cfg.HW.Sensors = []hw.SensorConfig{{Zone: "Living room", Chip: "bme280", Address: 0x76}}
	cfg.RainGauge = &raingauge.Config{Pin: "GPIO17"}
	pin := &gpiotest.Pin{N: "GPIO17", Num: 17, EdgesChan: make(chan gpio.Level, 1)}
	set, err = Build(ctx, cfg, Deps{Log: log, Seams: Seams{OpenBus: deniedBus, OpenPin: func(string) (gpio.PinIn, error) { return pin, nil }}})
	if err != nil {
		t.Fatal(err)
	}
	if set.House != nil || set.Simulated || !slices.Equal(set.Zones, []string{"Living room", "Rain"}) || len(set.Sources) != 2 {
		t.Errorf("configured: house %v, simulated %v, zones %v, %d sources", set.House, set.Simulated, set.Zones, len(set.Sources))
	}

	// demo.enabled adds the demo house to real sensors.
	cfg.Demo.Enabled = new(true)
	set, _ = Build(ctx, cfg, Deps{Log: log, Seams: Seams{OpenBus: deniedBus, OpenPin: func(string) (gpio.PinIn, error) { return pin, nil }}})
	if set.House == nil || len(set.Sources) != 3 {
		t.Errorf("with demo.enabled: %d sources", len(set.Sources))
	}
}
