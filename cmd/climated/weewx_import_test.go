package main

import (
	"context"
	"database/sql"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// weewxArchive is one of testdata/weewx's archives, made by weewx, and
// what its units are in the hub's.
type weewxArchive struct {
	file   string
	toC    func(float64) float64 // its temperatures in °C
	rainMM float64               // mm in its unit of rain
	kmh    float64               // km/h in its unit of wind speed
	hPa    float64               // hPa in its unit of pressure
}

var weewxArchives = []weewxArchive{
	{"us-extended.sdb", func(f float64) float64 { return (f - 32) * 5 / 9 }, 25.4, 1.609344, 33.8638866667},
	{"metric-extended.sdb", func(c float64) float64 { return c }, 10, 1, 1},
	{"metricwx-wview.sdb", func(c float64) float64 { return c }, 1, 3.6, 1},
}

// weewxDay is a row of one of weewx's daily summaries (archive_day_*).
type weewxDay struct {
	start                   int64 // the local midnight that starts the day
	min, max, sum           float64
	minTime, maxTime, count int64
}

// weewxDays reads weewx's daily summary of column from the archive.
func weewxDays(t *testing.T, db *sql.DB, column string) []weewxDay {
	t.Helper()
	rows, err := db.Query("SELECT dateTime, coalesce(min, 0), coalesce(mintime, 0), coalesce(max, 0), coalesce(maxtime, 0), sum, count FROM archive_day_" + column + " ORDER BY dateTime")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var days []weewxDay
	for rows.Next() {
		var d weewxDay
		if err := rows.Scan(&d.start, &d.min, &d.minTime, &d.max, &d.maxTime, &d.sum, &d.count); err != nil {
			t.Fatal(err)
		}
		days = append(days, d)
	}
	return days
}

// importWeewx imports the archive into a new database with the hub in
// weewx's tests' time zone, and opens the database.
func importWeewx(t *testing.T, file string, args ...string) (*history.Store, string) {
	t.Helper()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "climated.yaml")
	if err := os.WriteFile(cfg, []byte("timezone: America/Los_Angeles\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "h.db")
	start := time.Now()
	out, errOut, code := runCLI(t, append([]string{"import", "--config", cfg, "--db", db, "--from", "weewx"}, append(args, file)...)...)
	if code != 0 || !strings.Contains(out, "imported ") {
		t.Fatalf("import: exit %d\n%s\n%s", code, out, errOut)
	}
	t.Logf("%s: %s in %s", filepath.Base(file), strings.SplitN(out, "\n", 2)[0], time.Since(start).Round(time.Millisecond))
	store, err := history.OpenReadOnly(context.Background(), db, &history.Options{Location: laTime(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close(context.Background()) })
	return store, out
}

func laTime(t *testing.T) *time.Location {
	loc, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	return loc
}

func openWeewx(t *testing.T, file string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+file+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func within(a, b, tol float64) bool { return math.Abs(a-b) <= tol+1e-9 }

// TestWeewxImportMatchesWeewx imports each archive weewx made, in US,
// METRIC and METRICWX units and both schemas, and holds the hub's daily
// summaries, records and month of rain to weewx's own numbers in the
// same file.
func TestWeewxImportMatchesWeewx(t *testing.T) {
	for _, a := range weewxArchives {
		t.Run(a.file, func(t *testing.T) {
			file := filepath.Join(testutil.Root(t), "testdata", "weewx", a.file)
			wx := openWeewx(t, file)
			store, _ := importWeewx(t, file)
			loc := laTime(t)
			rain := weewxDays(t, wx, "rain")
			from, to := time.Unix(rain[0].start, 0), time.Unix(rain[len(rain)-1].start, 0).AddDate(0, 0, 1)
			days, err := store.Daily(context.Background(), "Station outdoor", from, to)
			if err != nil {
				t.Fatal(err)
			}
			hub := map[string]history.Day{}
			for _, d := range days {
				hub[d.Date] = d
			}
			checkDailyRain(t, a, rain, hub, loc)
			checkDailyTemperature(t, a, wx, weewxDays(t, wx, "outTemp"), hub, loc)
			checkMonthRain(t, a, store, rain, from, to)
			checkRecords(t, a, store, weewxDays(t, wx, "outTemp"), rain, loc)
			checkNulls(t, store, wx, from, to)
			checkHighest(t, store, "Station outdoor", sensors.WindStrength, weewxDays(t, wx, "windSpeed"), a.kmh, 0.51)
			checkHighest(t, store, "Station console", sensors.Pressure, weewxDays(t, wx, "barometer"), a.hPa, 0.051)
		})
	}
}

// checkDailyRain: each day's rain is weewx's to the gauge's resolution.
func checkDailyRain(t *testing.T, a weewxArchive, rain []weewxDay, hub map[string]history.Day, loc *time.Location) {
	t.Helper()
	wet := 0
	for _, w := range rain {
		date := time.Unix(w.start, 0).In(loc).Format(time.DateOnly)
		got, ok := hub[date].Measurements[string(sensors.Rain)]
		if !ok || got.Sum == nil {
			t.Errorf("%s: no rain in the hub's day; weewx has %g (%d records)", date, w.sum, w.count)
			continue
		}
		if want := w.sum * a.rainMM; !within(*got.Sum, want, 0.0005) {
			t.Errorf("%s: rain %.4f mm, weewx's %.4f mm", date, *got.Sum, want)
		}
		if got.Count != int(w.count) {
			t.Errorf("%s: %d rain readings, weewx's day has %d records", date, got.Count, w.count)
		}
		if w.sum > 0 {
			wet++
		}
	}
	if wet < 3 {
		t.Errorf("only %d wet days in %d: the check compares little", wet, len(rain))
	}
}

// checkDailyTemperature: each day's lowest and highest temperature and
// their times are weewx's. weewx counts a record stamped at midnight
// (the interval before it) in the day it ends, the hub a reading at
// midnight in the day it starts; a day whose extreme is such a record is
// left out, and the days left out are few.
func checkDailyTemperature(t *testing.T, a weewxArchive, wx *sql.DB, temps []weewxDay, hub map[string]history.Day, loc *time.Location) {
	t.Helper()
	compared := 0
	for _, w := range temps {
		day := time.Unix(w.start, 0).In(loc)
		end := day.AddDate(0, 0, 1).Unix()
		var first sql.NullFloat64 // the record at the day's midnight: weewx's day before
		wx.QueryRow("SELECT outTemp FROM archive WHERE dateTime = ?", w.start).Scan(&first)
		date := day.Format(time.DateOnly)
		got, ok := hub[date].Measurements[string(sensors.Temperature)]
		if !ok {
			t.Errorf("%s: no temperature in the hub's day", date)
			continue
		}
		if w.minTime != end && !(first.Valid && first.Float64 <= w.min) {
			compared++
			if !within(got.Min, a.toC(w.min), 0.051) || got.MinTime != w.minTime {
				t.Errorf("%s: lowest %.2f °C at %d, weewx's %.3f °C at %d", date, got.Min, got.MinTime, a.toC(w.min), w.minTime)
			}
		}
		if w.maxTime != end && !(first.Valid && first.Float64 >= w.max) {
			compared++
			if !within(got.Max, a.toC(w.max), 0.051) || got.MaxTime != w.maxTime {
				t.Errorf("%s: highest %.2f °C at %d, weewx's %.3f °C at %d", date, got.Max, got.MaxTime, a.toC(w.max), w.maxTime)
			}
		}
	}
	if compared < len(temps)*3/2 {
		t.Errorf("compared %d of the %d days' extremes: too few left", compared, 2*len(temps))
	}
	t.Logf("compared %d of the %d days' extremes", compared, 2*len(temps))
}

// checkMonthRain: the rain of the whole archive (a month, two weeks) is
// the sum of weewx's days.
func checkMonthRain(t *testing.T, a weewxArchive, store *history.Store, rain []weewxDay, from, to time.Time) {
	t.Helper()
	var want float64
	for _, w := range rain {
		want += w.sum * a.rainMM
	}
	got, err := store.Range(context.Background(), history.Query{Zone: "Station outdoor", Measurement: sensors.Rain, From: from, To: to})
	if err != nil || got.Summary == nil || got.Summary.Sum == nil {
		t.Fatalf("rain from %s to %s: %+v, %v", from, to, got, err)
	}
	if !within(*got.Summary.Sum, want, 0.0005) {
		t.Errorf("rain from %s to %s: %.4f mm, weewx's days add up to %.4f mm", from.Format(time.DateOnly), to.Format(time.DateOnly), *got.Summary.Sum, want)
	}
	t.Logf("rain %s to %s: %.3f mm, weewx's %.3f mm", from.Format(time.DateOnly), to.Format(time.DateOnly), *got.Summary.Sum, want)
}

// checkRecords: the lowest and highest temperature ever, with their
// times, and the wettest day are weewx's.
func checkRecords(t *testing.T, a weewxArchive, store *history.Store, temps, rain []weewxDay, loc *time.Location) {
	t.Helper()
	lo, hi, wettest := temps[0], temps[0], rain[0]
	for _, w := range temps {
		if w.min < lo.min {
			lo = w
		}
		if w.max > hi.max {
			hi = w
		}
	}
	for _, w := range rain {
		if w.sum > wettest.sum {
			wettest = w
		}
	}
	rec, err := store.Records(context.Background(), "Station outdoor")
	if err != nil {
		t.Fatal(err)
	}
	temp := rec.Measurements[string(sensors.Temperature)].Ever
	if temp.Min == nil || !within(*temp.Min, a.toC(lo.min), 0.051) || temp.MinTime != lo.minTime {
		t.Errorf("lowest ever %v at %d, weewx's %.3f °C at %d", temp.Min, temp.MinTime, a.toC(lo.min), lo.minTime)
	}
	if !within(temp.Max, a.toC(hi.max), 0.051) || temp.MaxTime != hi.maxTime {
		t.Errorf("highest ever %.2f at %d, weewx's %.3f °C at %d", temp.Max, temp.MaxTime, a.toC(hi.max), hi.maxTime)
	}
	wet := rec.Measurements[string(sensors.Rain)].Ever
	if day := time.Unix(wettest.start, 0).In(loc).Format(time.DateOnly); !within(wet.Max, wettest.sum*a.rainMM, 0.0005) || wet.Day != day {
		t.Errorf("wettest day %s with %.3f mm, weewx's %s with %.3f mm", wet.Day, wet.Max, day, wettest.sum*a.rainMM)
	}
}

// checkNulls: weewx's NULLs are no readings (weewx's generator leaves
// inTemp NULL in the first half of the archive), not zeros.
func checkNulls(t *testing.T, store *history.Store, wx *sql.DB, from, to time.Time) {
	t.Helper()
	var want int
	var firstValue int64
	if err := wx.QueryRow("SELECT count(inTemp), min(CASE WHEN inTemp IS NOT NULL THEN dateTime END) FROM archive").Scan(&want, &firstValue); err != nil {
		t.Fatal(err)
	}
	// The archive's last record is at the midnight that ends its last day.
	got, err := store.Range(context.Background(), history.Query{Zone: "Station console", Measurement: sensors.Temperature, From: from, To: to.Add(time.Hour)})
	if err != nil || got.Summary == nil {
		t.Fatalf("console temperature: %+v, %v", got, err)
	}
	if got.Summary.Count != want {
		t.Errorf("%d console temperatures, weewx has %d values (and NULLs)", got.Summary.Count, want)
	}
	days, err := store.Daily(context.Background(), "Station console", from, time.Unix(firstValue, 0))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range days {
		if s, ok := d.Measurements[string(sensors.Temperature)]; ok && d.Date < time.Unix(firstValue, 0).In(from.Location()).Format(time.DateOnly) {
			t.Errorf("%s: %d console temperatures (lowest %g), where weewx has only NULLs", d.Date, s.Count, s.Min)
		}
	}
}

// checkHighest: the highest value ever of m in zone, and its time, are
// weewx's, in the catalogue's unit (factor times weewx's), to tol (half
// the decimal the hub shows m with, and its resolution).
func checkHighest(t *testing.T, store *history.Store, zone string, m sensors.Measurement, days []weewxDay, factor, tol float64) {
	t.Helper()
	hi := days[0]
	for _, w := range days {
		if w.max > hi.max {
			hi = w
		}
	}
	rec, err := store.Records(context.Background(), zone)
	if err != nil {
		t.Fatal(err)
	}
	got := rec.Measurements[string(m)].Ever
	if !within(got.Max, hi.max*factor, tol) || got.MaxTime != hi.maxTime {
		t.Errorf("highest %s ever %g at %d, weewx's %.3f at %d", m, got.Max, got.MaxTime, hi.max*factor, hi.maxTime)
	}
}
