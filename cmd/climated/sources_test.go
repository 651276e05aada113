package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/i2c"

	"github.com/climated/climated/cmd/climated/internal/sources"
	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/internal/testutil/fakebus"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/hw"
)

func deniedBus(name string) (i2c.BusCloser, error) {
	return nil, fmt.Errorf("/dev/i2c-%s: %w", name, hw.ErrPermission)
}

// TestServeWithFaultySensor: a configured sensor that cannot be read is
// reported as a fault, and no simulated zone appears.
func TestServeWithFaultySensor(t *testing.T) {
	cfg := testConfig(t)
	cfg.File = "test.yaml"
	cfg.HW.Sensors = []hw.SensorConfig{{Zone: "Living room", Chip: "sht31", Address: 0x44}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan served, 1)
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), serveEnv{ready: func(h served) { ready <- h }, seams: sources.Seams{OpenBus: deniedBus}})
	}()
	var h served
	select {
	case h = <-ready:
	case err := <-done:
		t.Fatal(err)
	}
	testutil.WaitFor(t, "a fault reported for the unreadable sensor", func() bool {
		var fault string
		for _, st := range h.Hub.Statuses() {
			if st.Err != nil {
				fault = st.Err.Error()
			}
		}
		return strings.Contains(fault, "sht3x on i2c bus 1 at 0x44") && strings.Contains(fault, "permission denied")
	})
	if c := h.Hub.Snapshot().Climate; len(c) != 0 {
		t.Errorf("zones without a single reading: %v", c)
	}
	resp, err := http.Get("http://" + h.Addr.String() + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	var health struct {
		Status   string
		Problems []string
	}
	json.NewDecoder(resp.Body).Decode(&health)
	resp.Body.Close()
	if resp.StatusCode != 503 || health.Status != "unhealthy" || len(health.Problems) != 1 || !strings.Contains(health.Problems[0], "source i2c1/0x44 sht3x: sht3x on i2c bus 1 at 0x44: open bus: /dev/i2c-1: permission denied") {
		t.Errorf("/healthz with a failing sensor: %d %+v", resp.StatusCode, health)
	}
	if !slices.Equal(h.Zones, []string{"Living room"}) {
		t.Errorf("zones %v", h.Zones)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestScanAndReadWithoutBus(t *testing.T) {
	if _, err := os.Stat("/dev/i2c-1"); err == nil {
		t.Skip("this machine has an I²C bus")
	}
	for _, args := range [][]string{{"scan"}, {"read"}} {
		out, err := climated(args...).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "no such I²C bus") || !strings.Contains(string(out), "raspi-config") {
			t.Errorf("climated %v: %v\n%s", args, err, out)
		}
	}
	cfgPath := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(cfgPath, []byte("sensors:\n  - {zone: Indoor, chip: bme280, address: 0x44}\n"), 0o600)
	out, err := climated("read", "--config", cfgPath).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "0x44 is not an address of the bme280") {
		t.Errorf("read with a bad address: %v\n%s", err, out)
	}
}

// TestServeRecordsAnI2CSensor: an SHT31 on the bus (a fake that answers
// as the chip does) reaches get_climate's structure and the SQLite
// history of the running hub, the path sensors/hw's own tests no longer
// take (they test against sinktest, below the hub).
func TestServeRecordsAnI2CSensor(t *testing.T) {
	cfg := testConfig(t)
	cfg.File = "test.yaml"
	cfg.HW.Sensors = []hw.SensorConfig{{Zone: "Living room", Chip: "sht31", Address: 0x44}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan served, 1)
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), serveEnv{ready: func(h served) { ready <- h }, seams: sources.Seams{OpenBus: fakebus.OpenSHT31}})
	}()
	var h served
	select {
	case h = <-ready:
	case err := <-done:
		t.Fatal(err)
	}
	testutil.Eventually(func() bool { return h.Hub.Snapshot().Climate["Living room"]["Temperature"] != nil })
	zone := h.Hub.Snapshot().Climate["Living room"]
	if zone["Temperature"] == nil || zone["Humidity"] == nil {
		t.Fatalf("Living room = %v, want the SHT31's temperature and humidity", zone)
	}
	if err := h.Hub.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	s, err := h.Hub.Range(ctx, history.Query{Zone: "Living room", Measurement: sensors.Temperature, From: time.Now().Add(-time.Hour), To: time.Now().Add(time.Minute)})
	if err != nil || s.Summary == nil || s.Summary.Count < 1 || s.Summary.Max != zone["Temperature"] {
		t.Errorf("the history of Living room's temperature: %+v %v, want the reading served (%v)", s, err, zone["Temperature"])
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
