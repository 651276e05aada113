package demo_test

import (
	"math"
	"reflect"
	"slices"
	"testing"
	"time"
	_ "time/tzdata" // Europe/Berlin and America/New_York on any machine

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/demo"
)

func berlin(t testing.TB) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// value returns the value of m in zone among rs.
func value(t testing.TB, rs []sensors.Reading, zone string, m sensors.Measurement) float64 {
	t.Helper()
	for _, r := range rs {
		if r.Zone == zone && r.Measurement == m {
			return r.Value
		}
	}
	t.Fatalf("no %s/%s among %d readings at %v", zone, m, len(rs), rs[0].Time)
	return 0
}

// eachMinute calls f with the readings of every minute of [from, to).
func eachMinute(h *demo.House, from, to time.Time, f func(time.Time, []sensors.Reading)) {
	for t := from; t.Before(to); t = t.Add(time.Minute) {
		f(t, h.At(t))
	}
}

func TestNewDefaults(t *testing.T) {
	for _, opts := range []*demo.Options{nil, {}} {
		h := demo.New(opts)
		if got := h.Name(); got != "demo" {
			t.Errorf("Name() = %q, want demo", got)
		}
		want := []string{"Indoor", "Bedroom", "Balcony", "Rain"}
		if got := h.Zones(); !slices.Equal(got, want) {
			t.Errorf("Zones() = %q, want %q", got, want)
		}
		h.Zones()[0] = "changed"
		if got := h.Zones()[0]; got != "Indoor" {
			t.Errorf("Zones() shares its slice: first zone is now %q", got)
		}
	}
	// Seed 0 means seed 1.
	at := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	zero := demo.New(&demo.Options{Location: time.UTC}).At(at)
	one := demo.New(&demo.Options{Seed: 1, Location: time.UTC}).At(at)
	if !reflect.DeepEqual(zero, one) {
		t.Errorf("seed 0 and seed 1 differ:\n%v\n%v", zero, one)
	}
}

func TestAtIsDeterministic(t *testing.T) {
	loc := berlin(t)
	start := time.Date(2025, 5, 17, 0, 0, 0, 0, loc)
	end := start.Add(24 * time.Hour)
	a := demo.New(&demo.Options{Seed: 42, Location: loc})
	b := demo.New(&demo.Options{Seed: 42, Location: loc})

	// Forwards with one house, backwards with the other, in another
	// location and with a monotonic clock reading: the instant alone counts.
	var forwards, backwards [][]sensors.Reading
	eachMinute(a, start, end, func(_ time.Time, rs []sensors.Reading) { forwards = append(forwards, rs) })
	for t := end.Add(-time.Minute); !t.Before(start); t = t.Add(-time.Minute) {
		backwards = append(backwards, b.At(t.UTC()))
	}
	slices.Reverse(backwards)
	for i := range forwards {
		for j, r := range forwards[i] {
			o := backwards[i][j]
			if r.Zone != o.Zone || r.Measurement != o.Measurement || r.Value != o.Value || !r.Time.Equal(o.Time) {
				t.Fatalf("step %d reading %d: %+v, then %+v", i, j, r, o)
			}
		}
	}
	now := time.Now() // has a monotonic clock reading
	if x, y := a.At(now), b.At(now.Round(0)); !reflect.DeepEqual(x, y) {
		t.Errorf("At(now) and At(now without monotonic reading) differ")
	}

	// Another seed gives another house.
	c := demo.New(&demo.Options{Seed: 43, Location: loc})
	differ := map[sensors.Measurement]bool{}
	eachMinute(c, start, end, func(t time.Time, rs []sensors.Reading) {
		other := a.At(t)
		for j, r := range rs {
			if r.Value != other[j].Value {
				differ[r.Measurement] = true
			}
		}
	})
	for _, m := range []sensors.Measurement{sensors.Temperature, sensors.Humidity, sensors.CO2, sensors.Pressure, sensors.BatteryPercent,
		sensors.PM25, sensors.VOCIndex, sensors.NOxIndex} {
		if !differ[m] {
			t.Errorf("seeds 42 and 43 give the same %s all day", m)
		}
	}
}

// zoneMeasurements is what each zone must report; Rain only on boundaries.
var zoneMeasurements = map[string][]sensors.Measurement{
	"Indoor": {sensors.Temperature, sensors.Humidity, sensors.CO2, sensors.Noise, sensors.Pressure, sensors.AbsolutePressure, sensors.WiFiStatus,
		sensors.PM1, sensors.PM25, sensors.PM4, sensors.PM10, sensors.VOCIndex, sensors.NOxIndex},
	"Bedroom": {sensors.Temperature, sensors.Humidity, sensors.CO2, sensors.BatteryVoltage, sensors.BatteryPercent, sensors.RFStatus},
	"Balcony": {sensors.Temperature, sensors.Humidity, sensors.BatteryVoltage, sensors.BatteryPercent, sensors.RFStatus},
	"Rain":    {sensors.BatteryVoltage, sensors.BatteryPercent, sensors.RFStatus},
}

func TestDayOfReadings(t *testing.T) {
	tests := []struct {
		name string
		loc  *time.Location
		day  time.Time // midnight, in loc
	}{
		{"Berlin winter", berlin(t), time.Date(2025, 1, 20, 0, 0, 0, 0, berlin(t))},
		{"Berlin spring forward", berlin(t), time.Date(2025, 3, 30, 0, 0, 0, 0, berlin(t))},
		{"Berlin summer", berlin(t), time.Date(2025, 7, 20, 0, 0, 0, 0, berlin(t))},
		{"Berlin fall back", berlin(t), time.Date(2025, 10, 26, 0, 0, 0, 0, berlin(t))},
		{"UTC new year", time.UTC, time.Date(2024, 12, 31, 12, 0, 0, 0, time.UTC)},
		{"half-hour zone", time.FixedZone("IST", 5*3600+1800), time.Date(2025, 4, 1, 0, 0, 0, 0, time.FixedZone("IST", 5*3600+1800))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := demo.New(&demo.Options{Seed: 7, Location: tt.loc})
			rainSteps := 0
			eachMinute(h, tt.day, tt.day.Add(24*time.Hour), func(at time.Time, rs []sensors.Reading) {
				got := map[string][]sensors.Measurement{}
				for _, r := range rs {
					if err := r.Validate(); err != nil {
						t.Errorf("%v: %v", at, err)
					}
					if !r.Time.Equal(at) {
						t.Errorf("%s/%s at %v has time %v", r.Zone, r.Measurement, at, r.Time)
					}
					if want := "demo/" + r.Zone; r.Source != want {
						t.Errorf("%s/%s has source %q, want %q", r.Zone, r.Measurement, r.Source, want)
					}
					info, _ := sensors.Lookup(r.Measurement)
					scale := math.Pow10(info.Decimals)
					if math.Abs(r.Value*scale-math.Round(r.Value*scale)) > 1e-6 {
						t.Errorf("%s/%s = %v has more than %d decimals", r.Zone, r.Measurement, r.Value, info.Decimals)
					}
					got[r.Zone] = append(got[r.Zone], r.Measurement)
				}
				onBoundary := at.Minute()%5 == 0
				for zone, want := range zoneMeasurements {
					if zone == "Rain" && onBoundary {
						want = append([]sensors.Measurement{sensors.Rain}, want...)
					}
					if !slices.Equal(got[zone], want) {
						t.Fatalf("%v: zone %s reports %v, want %v", at, zone, got[zone], want)
					}
				}
				if len(got) != len(zoneMeasurements) {
					t.Fatalf("%v: zones %v", at, got)
				}
				if onBoundary {
					rainSteps++
				}
			})
			if rainSteps != 24*12 {
				t.Errorf("%d Rain readings in a day, want %d", rainSteps, 24*12)
			}
		})
	}
	// Off the minute, Rain is not reported either.
	h := demo.New(&demo.Options{Location: time.UTC})
	for _, r := range h.At(time.Date(2025, 1, 1, 0, 5, 0, 1, time.UTC)) {
		if r.Measurement == sensors.Rain {
			t.Errorf("Rain reading 1 ns after a boundary: %+v", r)
		}
	}
}

// TestSmooth checks that the weather has no jumps from minute to minute,
// also on the days the clocks change.
func TestSmooth(t *testing.T) {
	loc := berlin(t)
	h := demo.New(&demo.Options{Seed: 3, Location: loc})
	tests := []struct {
		zone    string
		m       sensors.Measurement
		maxStep float64 // per minute
	}{
		{"Balcony", sensors.Temperature, 0.3},
		{"Balcony", sensors.Humidity, 2},
		{"Indoor", sensors.Temperature, 0.2},
		{"Indoor", sensors.Pressure, 0.3},
		{"Indoor", sensors.AbsolutePressure, 0.3},
	}
	for _, day := range []time.Time{time.Date(2025, 3, 30, 0, 0, 0, 0, loc), time.Date(2025, 10, 26, 0, 0, 0, 0, loc)} {
		prev := make([]float64, len(tests))
		eachMinute(h, day, day.Add(25*time.Hour), func(at time.Time, rs []sensors.Reading) {
			for i, tt := range tests {
				v := value(t, rs, tt.zone, tt.m)
				if at.After(day) && math.Abs(v-prev[i]) > tt.maxStep {
					t.Errorf("%v: %s/%s jumps from %v to %v", at, tt.zone, tt.m, prev[i], v)
				}
				prev[i] = v
			}
		})
	}
}
