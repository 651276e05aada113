package ingest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/sensors"
)

// keepAllSink keeps every reading and status it is given, valid or not.
type keepAllSink struct {
	mu       sync.Mutex
	readings []sensors.Reading
	statuses []sensors.Status
}

func (s *keepAllSink) Record(_ context.Context, b sensors.Batch) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.readings = append(s.readings, b.Readings...)
	return nil
}
func (s *keepAllSink) Flush(context.Context) error { return nil }
func (s *keepAllSink) Report(st sensors.Status) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.statuses = append(s.statuses, st)
}

// TestNoBadZoneOrSourceGetsIn: devices whose names carry control
// characters, bytes that are not UTF-8, surrounding spaces or thousands
// of characters, by every path (auto_zone, a fixed zone, a devices map,
// probes with zones of their own, another hub's zones, retained and not,
// simulated ones) give the sink only readings that Validate accepts and
// statuses of valid sources and zones; each refused device is said, and
// what the ingest keeps stays bounded however many come.
func TestNoBadZoneOrSourceGetsIn(t *testing.T) {
	in, log := capturingIngest(t, Options{MaxAutoZones: 100},
		Mapping{Topic: "z2m/#", Format: "zigbee2mqtt", AutoZone: true},
		Mapping{Topic: "fixed/#", Format: "zigbee2mqtt", Zone: "Hall"},
		Mapping{Topic: "tele/#", Format: "tasmota", AutoZone: true},
		Mapping{Topic: "hubs/#", Format: "climated"},
	)
	sink := &keepAllSink{}
	bad := []string{"a\x00b", "ctl\x1bname", "\xff\xfe", " spaced ", strings.Repeat("long", 3000), "\u0085", "tab\tname", "ok\xc3"}
	var msgs []mqtt.Message
	for i, name := range bad {
		payload := `{"temperature":21.5,"humidity":40}`
		msgs = append(msgs,
			msg("z2m/"+name, payload), retained("z2m/"+name, payload),
			msg("fixed/"+name, payload),
			msg("tele/"+name+"/SENSOR", fmt.Sprintf(`{"Time":"2027-01-15T08:00:00","DS18B20-%d":{"Id":"%s","Temperature":21.%d}}`, i, name, i)),
			msg(fmt.Sprintf("hubs/h%d/state", i), fmt.Sprintf(`{"zone":%q,"Temperature":21.5,"simulated":["Temperature"]}`, name)),
		)
	}
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
	if len(sink.readings) == 0 {
		t.Fatal("nothing recorded: the test sends nothing the ingest takes")
	}
	srcs := map[string]bool{}
	for _, r := range sink.readings {
		srcs[r.Source] = true
	}
	t.Logf("%d readings from %d sources", len(sink.readings), len(srcs))
	for _, r := range sink.readings {
		if err := r.Validate(); err != nil {
			t.Errorf("an invalid reading reached the sink: %v", err)
		}
	}
	for _, st := range sink.statuses {
		for _, z := range st.Zones {
			if err := sensors.CheckZone(z); err != nil {
				t.Errorf("status of %q names zone %q: %v", st.Source, z, err)
			}
		}
		if err := (sensors.Reading{Zone: "x", Source: st.Source, Measurement: sensors.Temperature, Value: 20, Time: t0}).Validate(); err != nil {
			t.Errorf("a status of an invalid source: %v", err)
		}
	}
	if !strings.Contains(log.String(), "not UTF-8") {
		t.Errorf("a refused device was not said:\n%.2000s", log.String())
	}
	// Many refused devices: nothing kept per device.
	for i := range 20000 {
		m := msg(fmt.Sprintf("fixed/\xff%d", i), `{"temperature":21.5}`)
		in.handler(1)(m)
		for len(in.queue) > 0 {
			if err := in.drain(context.Background(), sink, <-in.queue); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n := len(in.devices); n > maxDevices {
		t.Errorf("%d devices kept", n)
	}
	if n, m := len(in.placer.noted), len(in.waiting.vals); n > maxNoted || m > maxPending {
		t.Errorf("%d noted, %d waiting", n, m)
	}
	if st := in.Stats(); st.NoZone < 20000 {
		t.Errorf("stats %+v: the refused devices are not counted", st)
	}
}
