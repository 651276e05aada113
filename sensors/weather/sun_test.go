package weather

import (
	"testing"
	"time"
)

// TestSunTimesNOAA: NOAA's solar calculator for named places and dates,
// to the minute. Cupertino (37.3229978 N, 122.0321823 W) on 2024-01-01:
// sunrise 07:22:13 and sunset 17:00:33 PST, as cloudengio/go.pkgs'
// geospatial/astronomy/sunrise_test.go takes them from NOAA.
func TestSunTimesNOAA(t *testing.T) {
	pst, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	for _, c := range []struct {
		place     string
		lat, lon  float64
		day       time.Time
		rise, set string
	}{
		{"Cupertino", 37.3229978, -122.0321823, time.Date(2024, 1, 1, 12, 0, 0, 0, pst), "07:22:13", "17:00:33"},
	} {
		d := SunTimes(c.day, c.lat, c.lon)
		for _, e := range []struct {
			name string
			got  time.Time
			want string
		}{{"sunrise", d.Sunrise, c.rise}, {"sunset", d.Sunset, c.set}} {
			want, _ := time.ParseInLocation("2006-01-02 15:04:05", c.day.Format("2006-01-02 ")+e.want, c.day.Location())
			if diff := e.got.Sub(want); diff < -time.Minute || diff > time.Minute {
				t.Errorf("%s %s on %s: %s, NOAA says %s", c.place, e.name, c.day.Format("2006-01-02"), e.got.In(c.day.Location()).Format("15:04:05"), e.want)
			}
		}
	}
}

// TestSunTimesEdges: at the equator on an equinox the day is about 12 h 7 m
// (refraction and the sun's radius add minutes); north of the Arctic
// circle midsummer has no sunset and midwinter no sunrise, and the south
// the other way round.
func TestSunTimesEdges(t *testing.T) {
	eq := SunTimes(time.Date(2024, 3, 20, 12, 0, 0, 0, time.UTC), 0, 0)
	if eq.Length < 12*time.Hour || eq.Length > 12*time.Hour+10*time.Minute {
		t.Errorf("equator at the equinox: %v long, want 12 h and a few minutes", eq.Length)
	}
	june, dec := time.Date(2024, 6, 21, 12, 0, 0, 0, time.UTC), time.Date(2024, 12, 21, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name      string
		day       time.Time
		lat       float64
		day_, off bool
	}{
		{"Tromsø in June", june, 69.65, true, false}, {"Tromsø in December", dec, 69.65, false, true},
		{"McMurdo in June", june, -77.85, false, true}, {"McMurdo in December", dec, -77.85, true, false},
	} {
		got := SunTimes(c.day, c.lat, 18.96)
		if got.PolarDay != c.day_ || got.PolarNight != c.off || !got.Sunrise.IsZero() {
			t.Errorf("%s: %+v, want polar day %v, polar night %v", c.name, got, c.day_, c.off)
		}
	}
}
