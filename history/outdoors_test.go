package history

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// TestDailyOutdoors: the daily summaries of outdoor zones (Garden by the
// configuration, Mast by its wind) have their degree days, as the
// published definition gives them from the day's mean (HDD = max(0,
// base − mean), CDD = max(0, mean − base)), and the sun's times at
// Cupertino, which NOAA gives for 2024-01-01 as 07:22:13 and 17:00:33
// PST (cloudengio/go.pkgs geospatial/astronomy/sunrise_test.go); an
// indoor zone's days have neither.
func TestDailyOutdoors(t *testing.T) {
	pst, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	d1 := time.Date(2024, 1, 1, 0, 0, 0, 0, pst)
	now := d1.AddDate(0, 0, 2)
	// Day 1 alternates 8 and 12 °C (mean 10), day 2 20 and 24 (mean 22).
	temp := func(i int) float64 { return []float64{8, 12, 20, 24}[2*(i/24)+i%2] }
	var rs []sensors.Reading
	for _, z := range []string{"Garden", "Mast", "Indoor"} {
		rs = append(rs, every(z, sensors.Temperature, d1, 48, time.Hour, temp)...)
	}
	rs = append(rs, every("Mast", sensors.WindStrength, d1, 48, time.Hour, func(int) float64 { return 10 })...)
	path := filepath.Join(t.TempDir(), "h.db")
	seed := openTest(t, path, &Options{Now: testutil.FixedClock(now), Location: pst})
	if err := seed.Record(context.Background(), sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, seed)
	seed.Close(context.Background())
	s := openTest(t, path, &Options{Now: testutil.FixedClock(now), Location: pst, Outdoors: &Outdoors{
		DegreeDayBase: 18, Place: &Place{Latitude: 37.3229978, Longitude: -122.0321823},
		Outdoor: func(z string) bool { return z == "Garden" },
	}})
	for _, zone := range []string{"Garden", "Mast"} {
		days, err := s.Daily(context.Background(), zone, d1, now)
		if err != nil || len(days) != 2 {
			t.Fatalf("%s: %v, %v", zone, days, err)
		}
		for i, want := range []struct{ hdd, cdd float64 }{{8, 0}, {0, 4}} {
			d := days[i]
			if d.HDD == nil || d.CDD == nil || *d.HDD != want.hdd || *d.CDD != want.cdd {
				js, _ := json.Marshal(d)
				t.Errorf("%s %s: %s, want hdd %g and cdd %g", zone, d.Date, js, want.hdd, want.cdd)
			}
		}
		// NOAA's day is 9h38m20s long: 9h38m or 9h39m are within the minute.
		if d := days[0]; d.Sunrise != "07:22" || d.Sunset != "17:01" || (d.Daylight != "9h38m" && d.Daylight != "9h39m") {
			t.Errorf("%s %s: sun %s–%s (%s), NOAA says 07:22–17:01 (9h38m20s)", zone, d.Date, d.Sunrise, d.Sunset, d.Daylight)
		}
	}
	days, err := s.Daily(context.Background(), "Indoor", d1, now)
	if err != nil || len(days) != 2 {
		t.Fatalf("Indoor: %v, %v", days, err)
	}
	if js, _ := json.Marshal(days); strings.Contains(string(js), "hdd") || strings.Contains(string(js), "sunrise") {
		t.Errorf("an indoor zone's days: %s", js)
	}
}
