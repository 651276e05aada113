package ingest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/mqtt/internal/clienttest"
	"github.com/climated/climated/mqtt/internal/mqtttest"
	"github.com/climated/climated/mqtt/publish"
	"github.com/climated/climated/sensors"
)

// hub is one climated in a test: a history store fed directly (as the
// I²C chips would), a client, an ingest of the other hub's states and a
// publisher of its own zones.
type peer struct {
	store  *storeSink
	client *mqtt.Client
	ingest *Ingest
	// stop stops the ingest and then the client, which says offline, as
	// a hub that stops does; the end of the test stops them otherwise.
	stop func()
}

func startHub(t *testing.T, broker, prefix, other string) *peer {
	t.Helper()
	return startHubOn(t, broker, prefix, other+"/+/state")
}

// startHubOn is startHub with the ingest's topic filter: other/# to take
// the other hub's status too.
func startHubOn(t *testing.T, broker, prefix, filter string) *peer {
	t.Helper()
	h := &peer{store: openStore(t), client: clienttest.New(t, clienttest.FastOptions(broker, prefix))}
	var err error
	h.ingest, err = New(h.client, []Mapping{{Topic: filter, Format: "climated"}}, &Options{Recorded: h.store.Points, Logger: mqtttest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	p, err := publish.NewPublisher(h.client, h.store, &publish.Options{
		Enabled: true, Interval: 10 * time.Millisecond, Skip: h.ingest.Feeds, Logger: mqtttest.Logger(t),
	})
	if err != nil {
		t.Fatal(err)
	}
	stopClient := startRun(t, "client Run", h.client.Run)
	stopIngest := startRun(t, "ingest Run", func(ctx context.Context) error { return h.ingest.Run(ctx, h.store) })
	h.stop = sync.OnceFunc(func() { stopIngest(); stopClient() })
	t.Cleanup(h.stop)
	mqtttest.RunUntilCleanup(t, "publisher Run", p.Run)
	return h
}

// startRun runs run in a goroutine until the returned stop cancels its
// context and waits for it; an error it returns fails the test.
func startRun(t *testing.T, name string, run func(context.Context) error) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx) }()
	return func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func (h *peer) record(t *testing.T, rs ...sensors.Reading) {
	t.Helper()
	if err := h.store.Record(context.Background(), sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
}

// Two hubs federate through one broker: each shows the other's zones as
// its own, rain included, and neither echoes the other's zones back.
func TestTwoHubsFederate(t *testing.T) {
	srv, broker := mqtttest.StartMochi(t)
	echo := mqtttest.CaptureOn(t, srv, "climated/#", 1)
	a := startHub(t, broker, "climated/a", "climated/b")
	b := startHub(t, broker, "climated/b", "climated/a")
	mqtttest.WaitSubscribed(t, srv, "climated/a/x/state")
	mqtttest.WaitSubscribed(t, srv, "climated/b/x/state")

	// Readings of the recent past, so that the rain sums (which end now)
	// include them.
	base := time.Now().Truncate(time.Second).Add(-10 * time.Minute)
	at := func(min int) time.Time { return base.Add(time.Duration(min) * time.Minute) }
	a.record(t,
		sensors.Reading{Zone: "Bedroom", Measurement: sensors.Temperature, Value: 19.5, Time: at(0), Source: "i2c1/0x76"},
		sensors.Reading{Zone: "Bedroom", Measurement: sensors.Humidity, Value: 48, Time: at(0), Source: "i2c1/0x76"},
		sensors.Reading{Zone: "Garden", Measurement: sensors.Rain, Value: 0.4, Time: at(0), Source: "gpio17"},
	)
	b.record(t, sensors.Reading{Zone: "Attic", Measurement: sensors.Temperature, Value: 27.2, Time: at(0), Source: "i2c1/0x77"})

	want := func(h *peer, zone, key string, v float64) {
		t.Helper()
		testutil.WaitFor(t, zone+" "+key, func() bool { got, _ := value(h.store, zone, key); return got == v })
	}
	want(b, "Bedroom", "Temperature", 19.5)
	want(b, "Bedroom", "Humidity", 48)
	want(b, "Garden", "Rain", 0.4)
	want(b, "Garden", "sum_rain_1", 0.4)
	want(a, "Attic", "Temperature", 27.2)

	// The garden's thermometer renews the zone: its rain is not new.
	a.record(t, sensors.Reading{Zone: "Garden", Measurement: sensors.Temperature, Value: 6.1, Time: at(1), Source: "i2c1/0x44"})
	want(b, "Garden", "Temperature", 6.1)
	if got, _ := value(b.store, "Garden", "sum_rain_1"); got != 0.4 {
		t.Errorf("Garden sum_rain_1 = %v after a temperature update, want 0.4", got)
	}
	// A new interval with the same amount adds up.
	a.record(t,
		sensors.Reading{Zone: "Bedroom", Measurement: sensors.Temperature, Value: 19.9, Time: at(5), Source: "i2c1/0x76"},
		sensors.Reading{Zone: "Garden", Measurement: sensors.Rain, Value: 0.4, Time: at(5), Source: "gpio17"},
	)
	want(b, "Bedroom", "Temperature", 19.9)
	want(b, "Garden", "sum_rain_1", 0.8)
	if !b.ingest.Feeds("Bedroom") || b.ingest.Feeds("Attic") {
		t.Errorf("hub b's ingest feeds %v", b.ingest.Zones())
	}
	// No hub republishes what it took in.
	for _, topic := range []string{"climated/b/bedroom/state", "climated/b/garden/state", "climated/a/attic/state"} {
		if _, ok := echo.Last(topic); ok {
			t.Errorf("%s: a hub echoed the other's zone", topic)
		}
	}
	if got := keyOf(b.store, "Bedroom", "When"); got != at(5).Unix() {
		t.Errorf("Bedroom When on hub b = %v, want hub a's %d", got, at(5).Unix())
	}
}

// keyOf is zone's key in the store's structure, nil when absent.
func keyOf(s *storeSink, zone, key string) any { v, _ := value(s, zone, key); return v }

// Each measurement reaches the other hub with its own time, not the zone's
// When: rain of 70 minutes ago published with a temperature of 5 minutes
// ago is not in the other hub's last hour, and a value the state merely
// repeats is not taken again at the newer time.
func TestHubsKeepMeasurementTimes(t *testing.T) {
	srv, broker := mqtttest.StartMochi(t)
	a := startHub(t, broker, "climated/a", "climated/b")
	b := startHub(t, broker, "climated/b", "climated/a")
	mqtttest.WaitSubscribed(t, srv, "climated/a/x/state")
	now := time.Now().Truncate(time.Second)
	a.record(t,
		sensors.Reading{Zone: "Garden", Measurement: sensors.Rain, Value: 0.4, Time: now.Add(-70 * time.Minute), Source: "gpio17"},
		sensors.Reading{Zone: "Garden", Measurement: sensors.Humidity, Value: 80, Time: now.Add(-70 * time.Minute), Source: "i2c1/0x44"},
		sensors.Reading{Zone: "Garden", Measurement: sensors.Temperature, Value: 6.1, Time: now.Add(-5 * time.Minute), Source: "i2c1/0x44"},
	)
	testutil.WaitFor(t, "Garden Temperature 6.1", func() bool { got, _ := value(b.store, "Garden", "Temperature"); return got == 6.1 })
	if got, _ := value(b.store, "Garden", "sum_rain_1"); got != 0.0 {
		t.Errorf("Garden sum_rain_1 on hub b = %v, want 0: the rain fell 70 minutes ago", got)
	}
	if got, _ := value(b.store, "Garden", "sum_rain_24"); got != 0.4 {
		t.Errorf("Garden sum_rain_24 on hub b = %v, want 0.4", got)
	}
	a.record(t, sensors.Reading{Zone: "Garden", Measurement: sensors.Temperature, Value: 6.3, Time: now.Add(-4 * time.Minute), Source: "i2c1/0x44"})
	testutil.WaitFor(t, "Garden Temperature 6.3", func() bool { got, _ := value(b.store, "Garden", "Temperature"); return got == 6.3 })
	count := func(m sensors.Measurement) int {
		s, err := b.store.Range(context.Background(), history.Query{Zone: "Garden", Measurement: m, From: now.Add(-2 * time.Hour), To: now})
		if err != nil || s.Summary == nil {
			return -1
		}
		return s.Summary.Count
	}
	testutil.WaitFor(t, "two Garden temperatures stored", func() bool { return count(sensors.Temperature) == 2 })
	if n := count(sensors.Humidity); n != 1 {
		t.Errorf("hub b stored %d Garden humidities, want 1: the state only repeated it", n)
	}
}

// Two readings of a zone in one second, published between them: the
// other hub's second state has the same When and the same times, with the
// rain added up and the temperature replaced. Before, hub b dropped that
// state as a repeat and lost the second rain amount.
func TestHubsCarryTwoReadingsInOneSecond(t *testing.T) {
	srv, broker := mqtttest.StartMochi(t)
	a := startHub(t, broker, "climated/a", "climated/b")
	b := startHub(t, broker, "climated/b", "climated/a")
	mqtttest.WaitSubscribed(t, srv, "climated/a/x/state")
	sec := time.Now().Truncate(time.Second).Add(-10 * time.Second)
	a.record(t,
		sensors.Reading{Zone: "Garden", Measurement: sensors.Rain, Value: 0.2, Time: sec.Add(100 * time.Millisecond), Source: "gpio17"},
		sensors.Reading{Zone: "Garden", Measurement: sensors.Temperature, Value: 6.1, Time: sec.Add(100 * time.Millisecond), Source: "i2c1/0x44"},
	)
	testutil.WaitFor(t, "Garden sum_rain_1 0.2 on hub b", func() bool { got, _ := value(b.store, "Garden", "sum_rain_1"); return got == 0.2 })
	// An equal amount in the same second: a tip of the gauge each, not a
	// repeat.
	a.record(t, sensors.Reading{Zone: "Garden", Measurement: sensors.Rain, Value: 0.2, Time: sec.Add(400 * time.Millisecond), Source: "gpio17"})
	testutil.WaitFor(t, "Garden sum_rain_1 0.4 on hub b", func() bool { got, _ := value(b.store, "Garden", "sum_rain_1"); return got == 0.4 })
	a.record(t,
		sensors.Reading{Zone: "Garden", Measurement: sensors.Rain, Value: 0.3, Time: sec.Add(600 * time.Millisecond), Source: "gpio17"},
		sensors.Reading{Zone: "Garden", Measurement: sensors.Temperature, Value: 6.4, Time: sec.Add(600 * time.Millisecond), Source: "i2c1/0x44"},
	)
	testutil.WaitFor(t, "Garden sum_rain_1 0.7 on hub a", func() bool { got, _ := value(a.store, "Garden", "sum_rain_1"); return got == 0.7 })
	testutil.WaitFor(t, "Garden sum_rain_1 0.7 and Temperature 6.4 on hub b", func() bool {
		rain, _ := value(b.store, "Garden", "sum_rain_1")
		temp, _ := value(b.store, "Garden", "Temperature")
		return rain == 0.7 && temp == 6.4
	})
	// The same state again (the sums slide, the hub publishes its zone
	// again) adds nothing.
	a.record(t, sensors.Reading{Zone: "Garden", Measurement: sensors.Humidity, Value: 80, Time: sec.Add(2 * time.Second), Source: "i2c1/0x44"})
	testutil.WaitFor(t, "Garden Humidity 80 on hub b", func() bool { got, _ := value(b.store, "Garden", "Humidity"); return got == 80.0 })
	if got, _ := value(b.store, "Garden", "sum_rain_1"); got != 0.7 {
		t.Errorf("Garden sum_rain_1 on hub b = %v after a state that repeats the rain, want 0.7", got)
	}
}
