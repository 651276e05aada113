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

func FuzzClimated(f *testing.F) { fuzzFormat(f, Climated, nil) }
