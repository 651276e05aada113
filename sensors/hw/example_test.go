package hw_test

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"os"
	"time"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/hw"
)

// A BME280 and an SCD41 in the living room, read once.
func ExampleSource_ReadOnce() {
	cfg := hw.Config{
		Altitude: 120,
		Sensors: []hw.SensorConfig{
			{Zone: "Indoor", Chip: "bme280", Address: 0x76},
			{Zone: "Indoor", Chip: "scd41", Offsets: hw.Offsets{Temperature: -1.5}},
		},
	}
	src, err := hw.New(cfg, &hw.Options{Logger: slog.New(slog.NewTextHandler(os.Stderr, nil))})
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rs, err := src.ReadOnce(ctx) // faults of some sensors do not hide the others' readings
	for _, r := range rs {
		info, _ := sensors.Lookup(r.Measurement)
		fmt.Printf("%s %s %.*f %s (%s)\n", r.Zone, r.Measurement, info.Decimals, r.Value, info.Unit, r.Source)
	}
	if err != nil {
		log.Print(err)
	}
}

// What is on the Raspberry Pi's I²C bus, as configuration lines.
func ExampleScan() {
	bus, err := hw.OpenBus(hw.DefaultBus)
	if err != nil {
		log.Fatal(err) // hw.ErrNoBus or hw.ErrPermission, with what to do
	}
	defer bus.Close()
	found, err := hw.Scan(context.Background(), bus, hw.DefaultBus)
	if err != nil {
		log.Fatal(err)
	}
	for _, line := range hw.ConfigLines(found, "Indoor") {
		fmt.Println(line)
	}
}
