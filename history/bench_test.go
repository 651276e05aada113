package history

import (
	"context"
	"database/sql"
	"math"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/demo"
)

// demoReadings returns n readings of the demo house, minute by minute.
func demoReadings(n int) []sensors.Reading {
	h := demo.New(&demo.Options{Seed: 1, Location: time.UTC})
	var rs []sensors.Reading
	for t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC); len(rs) < n; t = t.Add(time.Minute) {
		rs = append(rs, h.At(t)...)
	}
	return rs[:n]
}

// BenchmarkWriterBatch writes batches of 1,000 readings in one transaction
// each, as the writer goroutine does, into a real database file.
func BenchmarkWriterBatch(b *testing.B) {
	s := openTest(b, filepath.Join(b.TempDir(), "h.db"), nil)
	rs := demoReadings(1000)
	shift := 0
	for b.Loop() {
		// Fresh times each batch, so every op inserts rather than updates.
		batch := make([]sensors.Reading, len(rs))
		for i, r := range rs {
			r.Time = r.Time.Add(time.Duration(shift) * 24 * time.Hour)
			batch[i] = r
		}
		shift++
		if _, err := s.w.write(batch, notes{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(rs))/b.Elapsed().Seconds(), "readings/s")
}

// yearStore is a database with a year of one reading a minute for one
// zone's temperature (525,600 rows), its days kept, built once per
// benchmark binary run.
func yearStore(b *testing.B) (*Store, time.Time) {
	b.Helper()
	start := time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC)
	end := start.AddDate(1, 0, 0)
	s := openTest(b, filepath.Join(b.TempDir(), "year.db"), &Options{Now: testutil.FixedClock(end), Location: time.UTC})
	ctx := context.Background()
	// Straight into raw and the rollups, as an import writes.
	tx, err := s.wdb.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	tw := newTxState()
	batch := make([]sensors.Reading, 0, 10_000)
	for t := start; t.Before(end); t = t.Add(time.Minute) {
		day := float64(t.Sub(start)) / float64(24*time.Hour)
		batch = append(batch, sensors.Reading{Zone: "Balcony", Measurement: sensors.Temperature,
			Value: 10 + 8*math.Sin(day/58) + 4*math.Sin(day*2*math.Pi), Time: t, Source: "bench"})
		if len(batch) == cap(batch) {
			if err := s.w.writeTx(ctx, tx, tw, batch, addAmounts); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	if err := s.w.writeTx(ctx, tx, tw, batch, addAmounts); err != nil {
		b.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	s.w.adopt(tw)
	if _, err := s.keepDays(ctx, s.wdb, time.Hour); err != nil { // as a hub keeps them
		b.Fatal(err)
	}
	return s, end
}

// BenchmarkRangeYear reads a year of minute readings at 500 points and
// in 6-hour steps (the hourly rollups), in local days (the kept days, as
// the charts' year), and a day at full resolution (1,440 points), as the
// history resource and tool do.
func BenchmarkRangeYear(b *testing.B) {
	s, end := yearStore(b)
	ctx := context.Background()
	b.Run("year-in-days", func(b *testing.B) {
		for b.Loop() {
			res, err := s.Range(ctx, Query{Zone: "Balcony", Measurement: sensors.Temperature, From: end.AddDate(-1, 0, 0), To: end, Days: true, MaxPoints: 500})
			if err != nil || len(res.Points) < 365 || res.Tier != daysTier {
				b.Fatalf("%v, %d points from %s", err, len(res.Points), res.Tier)
			}
		}
	})
	b.Run("year-500-points", func(b *testing.B) {
		for b.Loop() {
			res, err := s.Range(ctx, Query{Zone: "Balcony", Measurement: sensors.Temperature, From: end.AddDate(-1, 0, 0), To: end, MaxPoints: 500})
			if err != nil || len(res.Points) == 0 || len(res.Points) > 500 {
				b.Fatalf("%v, %d points", err, len(res.Points))
			}
		}
	})
	b.Run("year-6h-steps", func(b *testing.B) { // from the hourly rollups
		for b.Loop() {
			res, err := s.Range(ctx, Query{Zone: "Balcony", Measurement: sensors.Temperature, From: end.AddDate(-1, 0, 0), To: end, Step: 6 * time.Hour, MaxPoints: MaxPoints})
			if err != nil || len(res.Points) != 1460 {
				b.Fatalf("%v, %d points", err, len(res.Points))
			}
		}
	})
	b.Run("day-full-resolution", func(b *testing.B) {
		for b.Loop() {
			res, err := s.Range(ctx, Query{Zone: "Balcony", Measurement: sensors.Temperature, From: end.Add(-24 * time.Hour), To: end, Step: time.Minute, MaxPoints: MaxPoints})
			if err != nil || len(res.Points) != 1440 {
				b.Fatalf("%v, %d points", err, len(res.Points))
			}
		}
	})
	b.Run("daily-30-days", func(b *testing.B) {
		for b.Loop() {
			days, err := s.Daily(ctx, "Balcony", end.AddDate(0, 0, -30), end)
			if err != nil || len(days) != 30 {
				b.Fatalf("%v, %d days", err, len(days))
			}
		}
	})
}

// BenchmarkIngest compares readings per second through the real path
// (Record → the writer goroutine → recent table, batched) with a bare
// batched-insert loop on the same driver and the same row shape: the
// ceiling. Compare the two figures of one run.
func BenchmarkIngest(b *testing.B) {
	const batch = 1000
	rs := demoReadings(batch)
	b.Run("writer", func(b *testing.B) {
		s := openTest(b, filepath.Join(b.TempDir(), "h.db"), nil)
		ctx := context.Background()
		shift := 0
		b.ResetTimer()
		// Timed to the end of the final flush: readings/s means on disk.
		for range b.N {
			cp := make([]sensors.Reading, len(rs))
			for i, r := range rs {
				r.Time = r.Time.Add(time.Duration(shift) * 24 * time.Hour)
				cp[i] = r
			}
			shift++
			if err := s.Record(ctx, sensors.Batch{Readings: cp}); err != nil {
				b.Fatal(err)
			}
		}
		if err := s.Flush(ctx); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "readings/s")
	})
	b.Run("bare-insert", func(b *testing.B) {
		path := filepath.Join(b.TempDir(), "bare.db")
		db, err := sql.Open("sqlite", dsn(path, url.Values{"_journal_mode": {"wal"}, "_synchronous": {"normal"}}))
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		db.SetMaxOpenConns(1)
		if _, err := db.Exec("CREATE TABLE recent (t INTEGER NOT NULL, series INTEGER NOT NULL, v INTEGER NOT NULL, PRIMARY KEY (t, series)) WITHOUT ROWID"); err != nil {
			b.Fatal(err)
		}
		shift := int64(0)
		for b.Loop() {
			tx, _ := db.Begin()
			st, _ := tx.Prepare("INSERT INTO recent (t, series, v) VALUES (?, ?, ?)")
			for i, r := range rs {
				if _, err := st.Exec(r.Time.Unix()+shift*86400, i, encode(r.Measurement, r.Value)); err != nil {
					b.Fatal(err)
				}
			}
			st.Close()
			if err := tx.Commit(); err != nil {
				b.Fatal(err)
			}
			shift++
		}
		b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "readings/s")
	})
}
