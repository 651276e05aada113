package decode

import (
	"path/filepath"
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
