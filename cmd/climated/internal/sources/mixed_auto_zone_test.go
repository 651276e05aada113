package sources

import (
	"context"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/history"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/mqtt/ingest"
	"github.com/climated/climated/sensors"
)

// TestDemoBesideAnAutoZoneIsSaid: with the demo beside real sources
// (demo: enabled: true), a zone it shares with them holds simulated and
// measured values at once, and the log says which (warnMixed). A device
// whose zone comes from its name (auto_zone, as every zone of another hub
// followed with format climated) may share a zone with the demo too: it
// is a real source in a demo zone, and must be said as one.
func TestDemoBesideAnAutoZoneIsSaid(t *testing.T) {
	ctx := context.Background()
	_, addr := testutil.LoopbackBroker(t)
	var logs testutil.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	cfg := config.Default()
	cfg.Database = filepath.Join(t.TempDir(), "h.db")
	h, err := hub.Open(ctx, cfg.Database, &history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(ctx) })
	cfg.Demo.Enabled = new(true)
	cfg.MQTT = &config.MQTT{
		Options:       mqtt.Options{Broker: "tcp://" + addr},
		Subscriptions: []ingest.Mapping{{Topic: "zigbee2mqtt/+", Format: "zigbee2mqtt", AutoZone: true}},
	}
	d := Deps{Log: log, Seams: Seams{OpenBus: noBus}, Hub: h}
	set, err := Build(ctx, cfg, d)
	if err != nil {
		t.Fatal(err)
	}
	// As serve does: the demo's past day, then what it says of the zones it shares.
	if err := FillDemoPast(ctx, cfg, d, nil); err != nil {
		t.Fatal(err)
	}
	if err := ForgetDemo(ctx, set, d); err != nil {
		t.Fatal(err)
	}
	run := NewRunning(log, h, set)
	run.Start(ctx, set)
	t.Cleanup(run.Stop)

	dev := testutil.MQTTClient(t, "tcp://"+addr, "")
	testutil.WaitFor(t, "Bedroom with the device's and the demo's sources", func() bool {
		if tok := dev.Publish("zigbee2mqtt/Bedroom", 0, false, `{"temperature":19.5,"humidity":45}`); !tok.WaitTimeout(time.Second) {
			return false
		}
		for _, z := range h.Describe() {
			if z.Name != "Bedroom" {
				continue
			}
			real := slices.ContainsFunc(z.Sources, func(s string) bool { return !sensors.Simulated(s) })
			sim := slices.ContainsFunc(z.Sources, sensors.Simulated)
			return real && sim
		}
		return false
	})
	for _, z := range h.Describe() {
		if z.Name == "Bedroom" {
			t.Logf("Bedroom's sources: %v", z.Sources)
		}
	}
	said := false
	for _, line := range logs.Lines() {
		if strings.Contains(line, "Bedroom") && strings.Contains(line, "beside real sources") {
			said = true
		}
	}
	if !said {
		t.Errorf("Bedroom holds the demo's simulated values and a device's measured ones, and nothing says so:\n%s", logs.String())
	}
}
