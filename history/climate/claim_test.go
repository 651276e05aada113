package climate

import (
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestLiveNeverMixesSimulatedAndMeasured: the live structure keeps a
// series either simulated or measured, as the history does. A demo
// reading of a zone a station measures is not taken (it is not the
// house's), and a station's reading of a zone the demo filled drops the
// demo's points, so that its extremes and trend are the station's alone.
func TestLiveNeverMixesSimulatedAndMeasured(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	l := New(&Options{Location: time.UTC, Now: func() time.Time { return now }})
	temp := func(zone string, min int, v float64, src string) sensors.Reading {
		return sensors.Reading{Zone: zone, Measurement: sensors.Temperature, Value: v, Time: now.Add(-time.Duration(min) * time.Minute), Source: src}
	}
	l.Add([]sensors.Reading{temp("Bedroom", 30, 20, "station/gw2000a"), temp("Cellar", 30, 5, "demo/Cellar")})
	l.Add([]sensors.Reading{temp("Bedroom", 0, 28, "demo/Bedroom"), temp("Cellar", 10, 12, "station/gw2000a")})
	snap := l.Snapshot().Climate
	if b := snap["Bedroom"]; b["Temperature"] != 20.0 || b[sensors.KeyMaxTemp] != 20.0 {
		t.Errorf("Bedroom %v; want the station's 20 °C, the demo's 28 °C not taken", b)
	}
	if c := snap["Cellar"]; c["Temperature"] != 12.0 || c[sensors.KeyMinTemp] != 12.0 {
		t.Errorf("Cellar %v; want the station's 12 °C, the demo's 5 °C gone with it", c)
	}
	if pts := l.Points("Cellar", sensors.Temperature, 0); len(pts) != 1 {
		t.Errorf("the Cellar keeps %d points; want the station's one", len(pts))
	}
}
