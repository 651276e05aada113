package demo_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/demo"
)

// day is the minute series of one local day.
type day struct {
	times  []time.Time
	series map[string][]float64 // "Zone/Measurement" → values
}

func simulateDay(t testing.TB, h *demo.House, midnight time.Time) day {
	t.Helper()
	d := day{series: map[string][]float64{}}
	eachMinute(h, midnight, midnight.AddDate(0, 0, 1), func(at time.Time, rs []sensors.Reading) {
		d.times = append(d.times, at)
		for _, r := range rs {
			if r.Measurement != sensors.Rain {
				k := r.Zone + "/" + string(r.Measurement)
				d.series[k] = append(d.series[k], r.Value)
			}
		}
	})
	return d
}

// extremes returns the minimum and maximum of key and when they happen.
func (d day) extremes(key string) (lo, hi float64, loAt, hiAt time.Time) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for i, v := range d.series[key] {
		if v < lo {
			lo, loAt = v, d.times[i]
		}
		if v > hi {
			hi, hiAt = v, d.times[i]
		}
	}
	return lo, hi, loAt, hiAt
}

// at returns the value of key at the local time hh:mm.
func (d day) at(t testing.TB, key string, hh, mm int) float64 {
	t.Helper()
	for i, ti := range d.times {
		if ti.Hour() == hh && ti.Minute() == mm {
			return d.series[key][i]
		}
	}
	t.Fatalf("no %02d:%02d on %v", hh, mm, d.times[0])
	return 0
}

func correlation(x, y []float64) float64 {
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(len(x))
	my /= float64(len(y))
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}

// TestDailyCycles checks the shape of days across the year and seeds.
func TestDailyCycles(t *testing.T) {
	loc := berlin(t)
	dates := []time.Time{
		time.Date(2025, 1, 15, 0, 0, 0, 0, loc),
		time.Date(2025, 4, 15, 0, 0, 0, 0, loc),
		time.Date(2025, 7, 15, 0, 0, 0, 0, loc),
		time.Date(2025, 10, 15, 0, 0, 0, 0, loc),
	}
	for _, seed := range []int64{1, 2, 3} {
		h := demo.New(&demo.Options{Seed: seed, Location: loc})
		for _, date := range dates {
			d := simulateDay(t, h, date)
			name := fmt.Sprintf("%s seed %d", date.Format(time.DateOnly), seed)

			lo, hi, loAt, hiAt := d.extremes("Balcony/Temperature")
			if hiAt.Hour() < 12 || hiAt.Hour() >= 18 {
				t.Errorf("%s: outdoor maximum %v °C at %s, want the afternoon", name, hi, hiAt.Format("15:04"))
			}
			if loAt.Hour() < 2 || loAt.Hour() >= 9 {
				t.Errorf("%s: outdoor minimum %v °C at %s, want the early morning", name, lo, loAt.Format("15:04"))
			}
			inLo, inHi, _, _ := d.extremes("Indoor/Temperature")
			if inHi-inLo >= hi-lo {
				t.Errorf("%s: indoor range %.1f °C is not smaller than outdoor range %.1f °C", name, inHi-inLo, hi-lo)
			}
			if inLo < 18 || inHi > 25 {
				t.Errorf("%s: indoor temperature %v…%v °C", name, inLo, inHi)
			}

			if r := correlation(d.series["Balcony/Temperature"], d.series["Balcony/Humidity"]); r >= -0.5 {
				t.Errorf("%s: outdoor temperature and humidity correlate by %.2f, want clearly negative", name, r)
			}

			if night, noon := d.at(t, "Bedroom/CO2", 6, 0), d.at(t, "Bedroom/CO2", 12, 0); night <= noon || night < 1000 || noon > 650 {
				t.Errorf("%s: bedroom CO2 %v ppm at 06:00 and %v ppm at 12:00", name, night, noon)
			}
			if evening, afternoon := d.at(t, "Indoor/CO2", 21, 0), d.at(t, "Indoor/CO2", 15, 0); evening <= afternoon {
				t.Errorf("%s: living room CO2 %v ppm at 21:00, %v ppm at 15:00", name, evening, afternoon)
			}
			if day, night := d.at(t, "Indoor/Noise", 14, 0), d.at(t, "Indoor/Noise", 3, 0); day <= night || night > 36 || day < 40 {
				t.Errorf("%s: noise %v dB at 14:00, %v dB at 03:00", name, day, night)
			}
			if bedNight, bedDay := d.at(t, "Bedroom/Temperature", 4, 0), d.at(t, "Indoor/Temperature", 4, 0); bedNight >= bedDay {
				t.Errorf("%s: bedroom %v °C is not cooler than the living room %v °C", name, bedNight, bedDay)
			}

			sea, station := d.series["Indoor/Pressure"], d.series["Indoor/AbsolutePressure"]
			for i := range sea {
				if diff := sea[i] - station[i]; diff < 10 || diff > 20 {
					t.Fatalf("%s %s: Pressure %v − AbsolutePressure %v = %.1f hPa, want 10…20",
						name, d.times[i].Format("15:04"), sea[i], station[i], diff)
				}
			}
		}
	}
}

// TestLongRun checks ranges, seasons, pressure, batteries and rain over a
// year at 5-minute steps.
func TestLongRun(t *testing.T) {
	if testing.Short() {
		t.Skip("a simulated year")
	}
	loc := berlin(t)
	h := demo.New(&demo.Options{Seed: 11, Location: loc})
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, loc)
	end := start.AddDate(1, 0, 0)

	type span struct{ lo, hi float64 }
	want := map[string]span{
		"Balcony/Humidity":        {40, 95},
		"Indoor/Humidity":         {35, 60},
		"Bedroom/Humidity":        {35, 60},
		"Indoor/CO2":              {420, 950},
		"Bedroom/CO2":             {420, 1700},
		"Indoor/Noise":            {30, 55},
		"Indoor/Pressure":         {990, 1035},
		"Indoor/wifi_status":      {50, 65},
		"Bedroom/rf_status":       {55, 80},
		"Balcony/rf_status":       {55, 80},
		"Rain/rf_status":          {55, 80},
		"Bedroom/battery_percent": {50, 100},
		"Balcony/battery_percent": {50, 100},
		"Rain/battery_percent":    {50, 100},
		"Bedroom/battery_vp":      {5100, 6200},
		"Balcony/battery_vp":      {5100, 6200},
		"Rain/battery_vp":         {5100, 6200},
		"Rain/Rain":               {0, 3},
		"Indoor/PM1":              {0.5, 150},
		"Indoor/PM25":             {1, 170},
		"Indoor/PM4":              {1, 180},
		"Indoor/PM10":             {1, 200},
		"Indoor/VOCIndex":         {60, 410},
		"Indoor/NOxIndex":         {1, 151},
	}
	var januaryTemp, julyTemp, januaryN, julyN float64
	rainyHours := map[int64]bool{}
	rainyDays := map[string]bool{}
	hours := 0
	for at := start; at.Before(end); at = at.Add(demo.RainInterval) {
		rs := h.At(at)
		if at.Minute() == 0 {
			hours++
		}
		for _, r := range rs {
			k := r.Zone + "/" + string(r.Measurement)
			if s, ok := want[k]; ok && (r.Value < s.lo || r.Value > s.hi) {
				t.Errorf("%v: %s = %v, want %v…%v", at, k, r.Value, s.lo, s.hi)
			}
			if r.Measurement == sensors.Rain && r.Value > 0 {
				rainyHours[at.Add(-time.Minute).Unix()/3600] = true
				rainyDays[at.Add(-time.Minute).Format(time.DateOnly)] = true
			}
		}
		// One battery model (sensors/battery.go): battery_percent is the
		// alkaline discharge curve of battery_vp, four cells: the level
		// is rounded to 1 % (half a percent either way), the voltage to
		// 1 mV (at most 0.02 % on the curve's steepest part).
		for _, zone := range []string{"Bedroom", "Balcony", "Rain"} {
			mv, p := value(t, rs, zone, sensors.BatteryVoltage), value(t, rs, zone, sensors.BatteryPercent)
			if want := sensors.Alkaline.Percent(mv, 4); math.Abs(p-want) > 0.52 {
				t.Errorf("%v: %s battery %v %% at %v mV, want %.2f %% (alkaline, 4 cells)", at, zone, p, mv, want)
			}
		}
		switch temp := value(t, rs, "Balcony", sensors.Temperature); at.Month() {
		case time.January:
			januaryTemp += temp
			januaryN++
		case time.July:
			julyTemp += temp
			julyN++
		}
	}
	if jan, jul := januaryTemp/januaryN, julyTemp/julyN; jul-jan < 10 || jan > 5 || jul < 14 {
		t.Errorf("mean outdoor temperature %.1f °C in January, %.1f °C in July", jan, jul)
	}
	if share := float64(len(rainyHours)) / float64(hours); share < 0.03 || share > 0.25 {
		t.Errorf("rain in %.1f %% of the hours, want a few to 25 %%", 100*share)
	}
	if len(rainyDays) < 50 || len(rainyDays) > 340 {
		t.Errorf("rain on %d days of the year", len(rainyDays))
	}
}

// TestRain checks the gauge over 30 days in minute steps.
func TestRain(t *testing.T) {
	h := demo.New(&demo.Options{Seed: 5, Location: time.UTC})
	start := time.Date(2025, 9, 1, 0, 0, 0, 0, time.UTC)
	wetHours := map[int64]bool{}
	wetDays := map[int]bool{}
	readings := 0
	eachMinute(h, start, start.AddDate(0, 0, 30), func(at time.Time, rs []sensors.Reading) {
		for _, r := range rs {
			if r.Measurement != sensors.Rain {
				continue
			}
			readings++
			if !r.Time.Truncate(demo.RainInterval).Equal(r.Time) {
				t.Errorf("Rain reading at %v, not on a 5-minute boundary", r.Time)
			}
			if r.Value < 0 || r.Value > 3 || math.Abs(r.Value*10-math.Round(r.Value*10)) > 1e-9 {
				t.Errorf("%v: %v mm is not 0…3 mm in steps of 0.1 mm", r.Time, r.Value)
			}
			if r.Value > 0 {
				end := r.Time.Add(-time.Nanosecond) // the interval (t-5min, t]
				wetHours[end.Unix()/3600] = true
				wetDays[end.YearDay()] = true
			}
		}
	})
	if readings != 30*24*12 {
		t.Errorf("%d Rain readings in 30 days, want %d", readings, 30*24*12)
	}
	if len(wetDays) == 0 || len(wetDays) == 30 {
		t.Errorf("rain on %d of 30 days, want some but not all", len(wetDays))
	}
	if len(wetHours) == 0 || len(wetHours) > 30*24/2 {
		t.Errorf("rain in %d of %d hours", len(wetHours), 30*24)
	}
}
