package decode

import (
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

func TestClimated(t *testing.T) {
	checkCases(t, Climated, nil, []want{
		{file: "bedroom", device: "Bedroom", values: map[sensors.Measurement]float64{
			sensors.Temperature: 19.8, sensors.Humidity: 52, sensors.CO2: 812,
			sensors.BatteryVoltage: 5320, sensors.BatteryPercent: 83, sensors.RFStatus: 61,
		}},
		{file: "rain", device: "Rain", values: map[sensors.Measurement]float64{
			sensors.Rain: 0.3, sensors.BatteryVoltage: 5410, sensors.BatteryPercent: 71, sensors.RFStatus: 70,
		}},
		{file: "status", avail: Online}, // the hub's: Hub climated/hub-a
		{file: "bad_when", device: "Bedroom", err: true},
		{file: "impossible", device: "Attic", problems: 3},
		{file: "times", device: "Garden", problems: 1, values: map[sensors.Measurement]float64{
			sensors.Temperature: 6.1, sensors.Humidity: 81, sensors.Rain: 0.4,
		}}, // see TestClimatedTimes
		{file: "amounts", device: "Garden", values: map[sensors.Measurement]float64{sensors.Temperature: 6.1, sensors.Rain: 0}}, // and TestClimatedAmounts
		{file: "amounts_bad", device: "Garden", problems: 2},
	})
	dec, _ := New(Climated, nil)
	if r := dec.Decode(loadMsg(t, filepath.Join("testdata", "climated", "status.msg"))); r.Hub != "climated/hub-a" {
		t.Errorf("Hub = %q, want climated/hub-a", r.Hub)
	}
	r := dec.Decode(loadMsg(t, filepath.Join("testdata", "climated", "bedroom.msg")))
	if !r.Time.Equal(time.Unix(1796036400, 0)) {
		t.Errorf("Time = %v, want the zone's When", r.Time)
	}
}

// A state with "times" stamps each value with its own time; a time that is
// not one is reported, and its value keeps the zone's When.
func TestClimatedTimes(t *testing.T) {
	dec, _ := New(Climated, nil)
	r := dec.Decode(loadMsg(t, filepath.Join("testdata", "climated", "times.msg")))
	if r.Err != nil || len(r.Problems) != 1 {
		t.Fatalf("Err %v, Problems %v; want one problem, times.Humidity", r.Err, r.Problems)
	}
	want := map[sensors.Measurement]int64{sensors.Rain: 1796032200, sensors.Temperature: 1796036400, sensors.Humidity: 0}
	for _, v := range r.Values {
		w, ok := want[v.Measurement]
		if !ok {
			t.Errorf("unexpected value %+v", v)
			continue
		}
		if got := v.Time; (w == 0 && !got.IsZero()) || (w != 0 && !got.Equal(time.Unix(w, 0))) {
			t.Errorf("%s at %v, want %d (0: the zone's When)", v.Measurement, got, w)
		}
		delete(want, v.Measurement)
	}
	if len(want) > 0 {
		t.Errorf("missing values %v", want)
	}
}

func FuzzClimated(f *testing.F) { fuzzFormat(f, Climated, nil) }

// A state with "amounts" gives each rain of the log with its time and the
// start of what it totals; its own Rain is taken only when zero (the
// dry gauge's latest reading). A log entry out of order ends the log
// there, and an amount of something that is not one is reported.
func TestClimatedAmounts(t *testing.T) {
	dec, _ := New(Climated, nil)
	r := dec.Decode(loadMsg(t, filepath.Join("testdata", "climated", "amounts.msg")))
	if r.Err != nil || len(r.Problems) != 0 {
		t.Fatalf("Err %v, Problems %v", r.Err, r.Problems)
	}
	type rain struct {
		since, at int64
		v         float64
	}
	var got []rain
	for _, v := range r.Values {
		if v.Measurement == sensors.Rain {
			var since int64
			if !v.Since.IsZero() {
				since = v.Since.Unix()
			}
			got = append(got, rain{since, v.Time.Unix(), v.Value})
		}
	}
	want := []rain{{1795950000, 1795964400, 1.2}, {1795964400, 1796000400, 0.6}, {1796000400, 1796034600, 0.4}, {0, 1796034900, 0}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rain values %v, want %v", got, want)
	}

	r = dec.Decode(loadMsg(t, filepath.Join("testdata", "climated", "amounts_bad.msg")))
	var msgs []string
	for _, p := range r.Problems {
		msgs = append(msgs, p.Error())
	}
	wantMsgs := []string{
		`amounts.Rain.log[1]: time 1795964400 is not after 1795964400, the entry before it`,
		`amounts.Temperature: "Temperature" is not an amount of the catalogue`,
	}
	sort.Strings(msgs)
	if !reflect.DeepEqual(msgs, wantMsgs) {
		t.Errorf("problems %q, want %q", msgs, wantMsgs)
	}
	if len(r.Values) != 1 || r.Values[0].Value != 1.2 {
		t.Errorf("values %+v, want only the log's first rain: the state's nonzero Rain is the log's", r.Values)
	}
}

// A hub's alert topics, <prefix>/alerts/<rule>/<zone>/state (retained ON
// or OFF) and …/event, come with <prefix>/# as the README subscribes it:
// they are not zone states and are ignored, not warned about as bad
// payloads. A zone state whose prefix merely contains "alerts" is still one.
func TestClimatedIgnoresAlertTopics(t *testing.T) {
	dec, _ := New(Climated, nil)
	for _, m := range []struct{ topic, payload string }{
		{"climated/house/alerts/house_mould/bedroom/state", "OFF"},
		{"climated/house/alerts/house_co2/indoor/state", "ON"},
		{"climated/house/alerts/house_co2/indoor/event", `{"rule":"house.co2","zone":"Indoor","state":"ON"}`},
	} {
		if r := dec.Decode(m.topic, []byte(m.payload)); !r.Ignored || r.Err != nil {
			t.Errorf("%s %s: Ignored %v, Err %v; want ignored", m.topic, m.payload, r.Ignored, r.Err)
		}
	}
	r := dec.Decode("alerts/x/attic/state", []byte(`{"zone":"Attic","Temperature":12.5,"When":1796036400}`))
	if r.Ignored || r.Err != nil || r.Device != "Attic" {
		t.Errorf("a zone state under the prefix alerts/x: %+v", r)
	}
}
