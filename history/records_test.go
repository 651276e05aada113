package history

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// recordsNow is the clock of the records tests.
var recordsNow = time.Date(2026, 6, 15, 12, 0, 0, 0, time.UTC)

// recordsHistory is a year of a garden: 15 °C four times a day, 1 mm of
// rain a day, and known extremes: 36.4 °C at 2025-07-20 14:23 (ever),
// −12.5 °C at 2026-01-15 06:47 (ever and this year), 29.1 °C at
// 2026-06-10 15:12 (this year, with its raw readings kept), 41.2 mm on
// 2025-08-03 (ever) and 18.4 mm on 2026-05-02 (this year). Raw readings
// older than 30 days are pruned, as the writer does.
func recordsHistory(t *testing.T, extra ...sensors.Reading) *Store {
	t.Helper()
	start := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	days := int(recordsNow.Sub(start) / (24 * time.Hour))
	rs := every("Garden", sensors.Temperature, start, 4*days, 6*time.Hour, func(int) float64 { return 15 })
	rs = append(rs, every("Garden", sensors.Rain, start.Add(9*time.Hour), days, 24*time.Hour, func(int) float64 { return 1 })...)
	at := func(s string) time.Time { v, _ := time.Parse(time.DateTime, s); return v }
	for _, r := range []struct {
		m sensors.Measurement
		t string
		v float64
	}{
		{sensors.Temperature, "2025-07-20 14:23:00", 36.4}, {sensors.Temperature, "2026-01-15 06:47:00", -12.5},
		{sensors.Temperature, "2026-06-10 15:12:00", 29.1},
		{sensors.Rain, "2025-08-03 16:00:00", 20}, {sensors.Rain, "2025-08-03 17:00:00", 20.2},
		{sensors.Rain, "2026-05-02 11:00:00", 17.4},
	} {
		rs = append(rs, sensors.Reading{Zone: "Garden", Measurement: r.m, Value: r.v, Time: at(r.t), Source: "test"})
	}
	rs = append(rs, extra...)
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), &Options{Now: testutil.FixedClock(recordsNow), Location: time.UTC})
	ctx := context.Background()
	if err := s.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s)
	pruneAll(t, s, recordsNow)
	return s
}

// TestRecords: the ever and the year's records with their times: the
// start of the hour where only the hourly tier has them, exact where the
// raw readings are kept; rain's wettest day; no year's record for a
// measurement not read this year (humidity, last read in September).
func TestRecords(t *testing.T) {
	s := recordsHistory(t, sensors.Reading{Zone: "Garden", Measurement: sensors.Humidity, Value: 80,
		Time: time.Date(2025, 9, 1, 12, 0, 0, 0, time.UTC), Source: "test"})
	got, err := s.Records(context.Background(), "Garden")
	if err != nil {
		t.Fatal(err)
	}
	unix := func(v string) int64 { tm, _ := time.Parse(time.DateTime, v); return tm.Unix() }
	min := func(v float64) *float64 { return &v }
	want := map[string]MeasurementRecords{
		"Temperature": {
			Ever: Record{Min: min(-12.5), MinTime: unix("2026-01-15 06:00:00"), Max: 36.4, MaxTime: unix("2025-07-20 14:00:00")},
			Year: &Record{Min: min(-12.5), MinTime: unix("2026-01-15 06:00:00"), Max: 29.1, MaxTime: unix("2026-06-10 15:12:00")},
		},
		"Rain":     {Ever: Record{Max: 41.2, Day: "2025-08-03"}, Year: &Record{Max: 18.4, Day: "2026-05-02"}},
		"Humidity": {Ever: Record{Min: min(80), MinTime: unix("2025-09-01 12:00:00"), Max: 80, MaxTime: unix("2025-09-01 12:00:00")}},
	}
	gotJS, _ := json.Marshal(got.Measurements)
	wantJS, _ := json.Marshal(want)
	if string(gotJS) != string(wantJS) || got.Year != 2026 || got.Note == "" {
		t.Errorf("records of %d:\n%s\nwant\n%s", got.Year, gotJS, wantJS)
	}
	if _, err := s.Records(context.Background(), "Attic"); err == nil {
		t.Error("records of an unknown zone: no error")
	}
}

// TestRecordsSince: a record set in the period, and only one that beats
// what stood before it, is broken: 37.2 °C today beats 36.4 of last July
// (ever), 31 mm today beats this year's 18.4 mm (not the 41.2 of last
// August); the day's ordinary readings break nothing, nor does a series
// whose first readings are in the period.
func TestRecordsSince(t *testing.T) {
	today := recordsNow.Add(-2*time.Hour + 20*time.Minute)
	s := recordsHistory(t,
		sensors.Reading{Zone: "Garden", Measurement: sensors.Temperature, Value: 37.2, Time: today, Source: "test"},
		sensors.Reading{Zone: "Garden", Measurement: sensors.Rain, Value: 31, Time: today, Source: "test"},
		sensors.Reading{Zone: "Garden", Measurement: sensors.UV, Value: 9, Time: today, Source: "test"},
	)
	got, err := s.RecordsSince(context.Background(), "Garden", recordsNow.Add(-24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(got.Broken) // by measurement, as the zone lists them
	unix := func(v string) int64 { tm, _ := time.Parse(time.DateTime, v); return tm.Unix() }
	want, _ := json.Marshal([]Broken{
		{Measurement: "Rain", Record: "year wettest day", Value: 31, Day: "2026-06-15", Was: 18.4, WasDay: "2026-05-02"},
		{Measurement: "Temperature", Record: "ever max", Value: 37.2, Time: today.Unix(), Was: 36.4, WasTime: unix("2025-07-20 14:00:00")},
	})
	if string(js) != string(want) {
		t.Errorf("broken since yesterday:\n%s\nwant\n%s", js, want)
	}
	// Since a quarter of an hour before it, in the same hourly bucket: the
	// bucket's high is from after since, not a record that stood before.
	got, err = s.RecordsSince(context.Background(), "Garden", today.Add(-15*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if js, _ := json.Marshal(got.Broken); string(js) != string(want) {
		t.Errorf("broken since %s:\n%s\nwant\n%s", today.Add(-15*time.Minute).Format(time.TimeOnly), js, want)
	}
}

// BenchmarkRecordsYear reads the records of a year of minute readings
// (the hourly tier: 8,760 buckets), all of them and those set in the last
// day, as the records resource and the weather report do.
func BenchmarkRecordsYear(b *testing.B) {
	s, end := yearStore(b)
	ctx := context.Background()
	b.Run("records", func(b *testing.B) {
		for b.Loop() {
			if r, err := s.Records(ctx, "Balcony"); err != nil || len(r.Measurements) != 1 {
				b.Fatalf("%v, %+v", err, r)
			}
		}
	})
	b.Run("since-24h", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.RecordsSince(ctx, "Balcony", end.Add(-24*time.Hour)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
