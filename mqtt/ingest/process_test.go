package ingest

import (
	"context"
	"errors"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/mqtt/decode"
	"github.com/climated/climated/mqtt/internal/mqtttest"
	"github.com/climated/climated/sensors"
)

// recSink is a sensors.Sink that keeps what it gets and, like the history,
// refuses invalid readings.
type recSink struct {
	mu       sync.Mutex
	readings []sensors.Reading
	statuses map[string]sensors.Status
}

func (s *recSink) Record(ctx context.Context, b sensors.Batch) error {
	rs := b.Readings
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, r := range rs {
		if err := r.Validate(); err != nil {
			errs = append(errs, err)
			continue
		}
		s.readings = append(s.readings, r)
	}
	return errors.Join(errs...)
}

// Flush: what recSink keeps is kept at once.
func (s *recSink) Flush(context.Context) error { return nil }

func (s *recSink) Report(st sensors.Status) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.statuses == nil {
		s.statuses = map[string]sensors.Status{}
	}
	s.statuses[st.Source] = st
}

// values lists the values of m recorded for zone, in order, to 0.01.
func (s *recSink) values(zone string, m sensors.Measurement) []float64 {
	vs := s.raw(zone, m)
	for i, v := range vs {
		vs[i] = math.Round(v*100) / 100
	}
	return vs
}

// raw lists the values of m recorded for zone, in order, unrounded.
func (s *recSink) raw(zone string, m sensors.Measurement) []float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var vs []float64
	for _, r := range s.readings {
		if r.Zone == zone && r.Measurement == m {
			vs = append(vs, r.Value)
		}
	}
	return vs
}

var t0 = time.Unix(1_800_000_000, 0)

// newTestIngest is an ingest without a client: tests hand it messages.
func newTestIngest(t *testing.T, opts Options, ms ...Mapping) *Ingest {
	t.Helper()
	if opts.Now == nil {
		opts.Now = func() time.Time { return t0 }
	}
	opts.Logger = mqtttest.Logger(t)
	in, err := New(nil, ms, &opts)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// feed hands msgs to the handlers as paho would (every mapping whose
// filter matches gets each message) and processes the queue.
func feed(t *testing.T, in *Ingest, sink *recSink, msgs ...mqtt.Message) {
	t.Helper()
	for _, m := range msgs {
		for i := range in.mappings {
			if mqtt.Matches(in.mappings[i].Topic, m.Topic) {
				in.handler(i)(m)
			}
		}
		for len(in.queue) > 0 {
			if err := in.drain(context.Background(), sink, <-in.queue); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func msg(topic, payload string) mqtt.Message {
	return mqtt.Message{Topic: topic, Payload: []byte(payload)}
}

func retained(topic, payload string) mqtt.Message {
	return mqtt.Message{Topic: topic, Payload: []byte(payload), Retained: true}
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-9 {
			return false
		}
	}
	return true
}

func TestRainCounter(t *testing.T) {
	in := newTestIngest(t, Options{}, Mapping{Topic: "rtl_433/+/events", Format: "rtl_433", Devices: map[string]string{"WH24/1": "Garden"}})
	sink := &recSink{}
	ev := func(total string) string { return `{"model":"WH24","id":1,"temperature_C":5,"rain_mm":` + total + `}` }
	feed(t, in, sink,
		retained("rtl_433/pi/events", ev("99.0")), // retained: the base, no rain
		msg("rtl_433/pi/events", ev("100.0")),     // +1.0
		msg("rtl_433/pi/events", ev("100.4")),     // +0.4
		msg("rtl_433/pi/events", ev("100.4")),     // a repeat: 0
		msg("rtl_433/pi/events", ev("2.0")),       // counter restarted: 2.0 since
		retained("rtl_433/pi/events", ev("50")),   // a replay at re-subscription: nothing
		msg("rtl_433/pi/events", ev("2.5")),       // +0.5
	)
	if got, want := sink.values("Garden", sensors.Rain), []float64{1, 0.4, 0, 2, 0.5}; !equal(got, want) {
		t.Errorf("rain %v, want %v", got, want)
	}
	if got := sink.values("Garden", sensors.Temperature); len(got) != 6 {
		t.Errorf("%d temperatures, want 6 (the replay skipped)", len(got))
	}
	if st := in.Stats(); st.Replayed != 1 || st.Decoded != 6 {
		t.Errorf("stats %+v", st)
	}
}

func TestRetainedAtStartThenReplayed(t *testing.T) {
	in := newTestIngest(t, Options{}, Mapping{Topic: "zigbee2mqtt/+", Format: "zigbee2mqtt", AutoZone: true})
	sink := &recSink{}
	state := `{"temperature":20.5,"humidity":50,"linkquality":120}`
	feed(t, in, sink,
		retained("zigbee2mqtt/den", state), // the device's last state, at start-up
		retained("zigbee2mqtt/den", state), // the broker restarted: the same again
		msg("zigbee2mqtt/den", `{"temperature":20.7}`),
	)
	if got := sink.values("den", sensors.Temperature); !equal(got, []float64{20.5, 20.7}) {
		t.Errorf("temperatures %v, want [20.5 20.7]", got)
	}
	if st := in.Stats(); st.Replayed != 1 {
		t.Errorf("replayed %d, want 1", st.Replayed)
	}
}

func TestAutoZones(t *testing.T) {
	in := newTestIngest(t, Options{MaxAutoZones: 1}, Mapping{Topic: "home/+/BTtoMQTT/+", Format: "theengs", AutoZone: true})
	sink := &recSink{}
	feed(t, in, sink,
		msg("home/gw/BTtoMQTT/45E174126E00", `{"id":"45:e1:74:12:6e:00","rssi":-89}`), // a phone: no zone
		msg("home/gw/BTtoMQTT/A4C138AABBCC", `{"tempc":21.5,"hum":40,"batt":80,"rssi":-70}`),
		msg("home/gw/BTtoMQTT/A4C138AABBCC", `{"batt":79,"rssi":-71}`), // the zone exists now
		msg("home/gw/BTtoMQTT/A4C138765432", `{"tempc":4.5}`),          // beyond max_auto_zones
	)
	if got := in.Zones(); len(got) != 1 || got[0] != "A4C138AABBCC" {
		t.Errorf("zones %v", got)
	}
	if got := sink.values("A4C138AABBCC", sensors.BatteryPercent); !equal(got, []float64{80, 79}) {
		t.Errorf("battery %v", got)
	}
	if st := in.Stats(); st.NoZone != 2 {
		t.Errorf("no zone %d, want 2", st.NoZone)
	}
	if !in.Feeds("A4C138AABBCC") || in.Feeds("45E174126E00") {
		t.Error("Feeds disagrees with Zones")
	}
}

func TestClimatedStates(t *testing.T) {
	in := newTestIngest(t, Options{}, Mapping{Topic: "climated/a/+/state", Format: "climated"})
	sink := &recSink{}
	// The temperature is the When's seconds after t0, over ten.
	st := func(when, rain, sum24 string) string {
		w, _ := strconv.Atoi(when)
		temp := strconv.Itoa((w - 1800000000) / 10)
		return `{"zone":"Garden","Temperature":` + temp + `,"Rain":` + rain + `,"sum_rain_24":` + sum24 + `,"battery_percent":71,"When":` + when + `}`
	}
	feed(t, in, sink,
		retained("climated/a/garden/state", st("1800000000", "0.3", "4.8")), // at start-up: gauges yes, rain no
		msg("climated/a/garden/state", st("1800000000", "0.3", "4.8")),      // the same state again
		msg("climated/a/garden/state", st("1800000300", "0.2", "5.0")),      // a new rain interval
		msg("climated/a/garden/state", st("1800000200", "0.9", "5.9")),      // older than the last: a repeat
		msg("climated/a/garden/state", st("1800000360", "0.2", "5.0")),      // only the temperature is new
		msg("climated/a/garden/state", st("1800000600", "0.2", "5.2")),      // the same amount again, a new interval
	)
	if got := sink.values("Garden", sensors.Rain); !equal(got, []float64{0.2, 0.2}) {
		t.Errorf("rain %v, want [0.2 0.2]", got)
	}
	if got := sink.values("Garden", sensors.Temperature); !equal(got, []float64{0, 30, 36, 60}) {
		t.Errorf("temperatures %v, want one per new state", got)
	}
	sink.mu.Lock()
	last := sink.readings[len(sink.readings)-1]
	sink.mu.Unlock()
	if !last.Time.Equal(time.Unix(1800000600, 0)) || last.Source != "mqtt/climated/Garden" {
		t.Errorf("reading %+v: want the state's When and source mqtt/climated/Garden", last)
	}
	if s := in.Stats(); s.Replayed != 2 {
		t.Errorf("replayed %d, want 2", s.Replayed)
	}
}

func TestBadInputDroppedAndCounted(t *testing.T) {
	in := newTestIngest(t, Options{MaxPayload: 256}, Mapping{Topic: "zigbee2mqtt/#", Format: "zigbee2mqtt", AutoZone: true})
	sink := &recSink{}
	feed(t, in, sink,
		msg("zigbee2mqtt/kid", `{"temperature":21.0}`),
		msg("zigbee2mqtt/kid", `{"temperature":21.5,`),                               // malformed
		msg("zigbee2mqtt/kid", `{"temperature":-300,"humidity":150,"battery":"88"}`), // two impossible, one good
		msg("zigbee2mqtt/kid", `{"temperature":"NaN","humidity":"Inf"}`),
		msg("zigbee2mqtt/kid", `{"temperature":[1],"humidity":true}`),
		msg("zigbee2mqtt/kid", `{"temperature":1e999}`),
		msg("zigbee2mqtt/kid", `{"pad":"`+strings.Repeat("x", 300)+`"}`), // oversized
		msg("zigbee2mqtt/bridge/log", `{"message":"hello"}`),
	)
	st := in.Stats()
	want := Stats{Received: 8, Oversized: 1, Ignored: 1, BadPayload: 1, Decoded: 5, BadValues: 7, Readings: 2}
	if st != want {
		t.Errorf("stats\n%+v, want\n%+v", st, want)
	}
	if got := sink.values("kid", sensors.Temperature); !equal(got, []float64{21}) {
		t.Errorf("temperatures %v", got)
	}
	if got := sink.values("kid", sensors.BatteryPercent); !equal(got, []float64{88}) {
		t.Errorf("battery %v", got)
	}
	status := sink.statuses["mqtt/zigbee2mqtt/kid"]
	if status.Err == nil || !status.LastSeen.Equal(t0) || status.Zones[0] != "kid" {
		t.Errorf("status %+v: want the last problem and LastSeen", status)
	}
}

func TestQueueFullDrops(t *testing.T) {
	in := newTestIngest(t, Options{QueueSize: 2}, Mapping{Topic: "a/+", Format: "generic", Zone: "A",
		Fields: fieldsOf(sensors.Temperature)})
	for range 5 {
		in.handler(0)(msg("a/t", "20"))
	}
	if st := in.Stats(); st.QueueFull != 3 || st.Received != 5 {
		t.Errorf("stats %+v, want 3 of 5 dropped", st)
	}
}

func TestAvailabilityStatus(t *testing.T) {
	in := newTestIngest(t, Options{}, Mapping{Topic: "zigbee2mqtt/#", Format: "zigbee2mqtt", Zone: "Hall"})
	sink := &recSink{}
	feed(t, in, sink, msg("zigbee2mqtt/th/availability", `{"state":"offline"}`))
	if err := sink.statuses["mqtt/zigbee2mqtt/th"].Err; !errors.Is(err, errOffline) {
		t.Errorf("status error %v, want offline", err)
	}
	feed(t, in, sink, msg("zigbee2mqtt/th", `{"temperature":19}`))
	if err := sink.statuses["mqtt/zigbee2mqtt/th"].Err; !errors.Is(err, errOffline) {
		t.Errorf("a reading must not hide that the device said offline: %v", err)
	}
	feed(t, in, sink, msg("zigbee2mqtt/th/availability", "online"))
	if err := sink.statuses["mqtt/zigbee2mqtt/th"].Err; err != nil {
		t.Errorf("online: status error %v", err)
	}
}

func TestFirstMatchingMappingWins(t *testing.T) {
	in := newTestIngest(t, Options{},
		Mapping{Topic: "zigbee2mqtt/bedroom_th", Format: "zigbee2mqtt", Zone: "Bedroom"},
		Mapping{Topic: "zigbee2mqtt/+", Format: "zigbee2mqtt", AutoZone: true},
	)
	sink := &recSink{}
	feed(t, in, sink, msg("zigbee2mqtt/bedroom_th", `{"temperature":18.5}`), msg("zigbee2mqtt/den", `{"temperature":21}`))
	if got := sink.values("Bedroom", sensors.Temperature); !equal(got, []float64{18.5}) {
		t.Errorf("Bedroom %v", got)
	}
	if got := sink.values("bedroom_th", sensors.Temperature); got != nil {
		t.Errorf("the wildcard mapping took the message too: %v", got)
	}
	if st := in.Stats(); st.Received != 2 {
		t.Errorf("received %d, want 2", st.Received)
	}
}

func fieldsOf(m sensors.Measurement) []decode.Field { return []decode.Field{{Measurement: m}} }
