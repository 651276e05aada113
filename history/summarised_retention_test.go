package history

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// tierCounts is how many readings each rollup tier counts of s's series
// over [from, to), by bucket start.
func tierCounts(t *testing.T, s *Store, from, to time.Time) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, tier := range rollupTiers {
		var n int64
		if err := s.rdb.QueryRow(fmt.Sprintf("SELECT coalesce(sum(n), 0) FROM %s WHERE t >= ? AND t < ?", tier.table), from.Unix(), to.Unix()).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out[tier.table] = n
	}
	return out
}

// rainOf says what a summary of rain holds.
func rainOf(sum *Summary) string {
	if sum == nil || sum.Sum == nil {
		return "no rain"
	}
	return fmt.Sprintf("%d readings, %.2f mm", sum.Count, *sum.Sum)
}

// TestImportAgainAfterRetentionGrewCountsNothingTwice: a history pruned
// under one retention and opened again under a longer one; a backup of
// readings from the span between, imported again, adds nothing. Raw: kept
// a week, then the default 30 days, the readings 20 days old, so the raw
// tier holds none of their spans and cannot tell them for repeats.
// 5-minute: kept 30 days, then 90, the readings 60 days old, whose
// 5-minute buckets retention deleted: the hours summarise them.
func TestImportAgainAfterRetentionGrewCountsNothingTwice(t *testing.T) {
	now := time.Date(2026, 7, 2, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name          string
		age           time.Duration
		before, after Options
	}{
		{"raw", 20 * 24 * time.Hour, Options{RawRetention: 7 * 24 * time.Hour}, Options{}},
		{"5-minute", 60 * 24 * time.Hour, Options{RawRetention: 24 * time.Hour, RollupRetention: 30 * 24 * time.Hour},
			Options{RawRetention: 24 * time.Hour, RollupRetention: 90 * 24 * time.Hour}},
	} {
		t.Run(c.name, func(t *testing.T) {
			from := now.Add(-c.age)
			path := filepath.Join(t.TempDir(), "h.db")
			ctx := context.Background()
			for _, o := range []*Options{&c.before, &c.after} {
				o.Now, o.Location = testutil.FixedClock(now), time.UTC
			}
			s, err := Open(ctx, path, &c.before)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Record(ctx, sensors.Batch{Readings: every("Garden", sensors.Temperature, from, 60, time.Minute, func(i int) float64 { return 15 })}); err != nil {
				t.Fatal(err)
			}
			compactNow(t, s)
			csv := exportAll(t, s)
			pruneAll(t, s, now)
			want := tierCounts(t, s, from.Add(-24*time.Hour), from.Add(24*time.Hour))
			if err := s.Close(ctx); err != nil {
				t.Fatal(err)
			}
			s = openTest(t, path, &c.after)
			res := importAll(t, s, csv)
			if got := tierCounts(t, s, from.Add(-24*time.Hour), from.Add(24*time.Hour)); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("after importing the backup again (imported %d, left out %d): the rollups count %v; before %v", res.Imported, res.Summarised, got, want)
			}
		})
	}
}

// TestImportTipsOfOneSecondAddUp: a rain gauge's file with two tips
// within one second (times to the tenth of a second) records both: the
// history keeps instants to the second, and the second's rain is their
// sum, in the raw tier and in the rollups alike.
func TestImportTipsOfOneSecondAddUp(t *testing.T) {
	now := time.Date(2026, 7, 2, 0, 0, 0, 0, time.UTC)
	at := time.Date(2026, 6, 30, 10, 0, 0, 0, time.UTC)
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), &Options{Now: testutil.FixedClock(now), Location: time.UTC})
	ctx := context.Background()
	csv := "time,zone,measurement,value,source\n" +
		"2026-06-30T10:00:00.2Z,Garden,Rain,0.2,gauge\n" +
		"2026-06-30T10:00:00.7Z,Garden,Rain,0.3,gauge\n"
	importAll(t, s, []byte(csv))
	for _, q := range []struct {
		name string
		step time.Duration
	}{{"raw", time.Minute}, {"hourly", time.Hour}} {
		got, err := s.Range(ctx, Query{Zone: "Garden", Measurement: sensors.Rain, From: at, To: at.Add(time.Hour), Step: q.step})
		if err != nil {
			t.Fatal(err)
		}
		if sum := got.Summary; sum == nil || sum.Sum == nil || *sum.Sum < 0.499 || *sum.Sum > 0.501 {
			t.Errorf("rain read at %s steps: %s; want 0.5 mm", q.name, rainOf(sum))
		}
	}
	for _, tier := range rollupTiers {
		var total float64
		if err := s.rdb.QueryRow(fmt.Sprintf("SELECT coalesce(sum(total), 0) FROM %s", tier.table)).Scan(&total); err != nil {
			t.Fatal(err)
		}
		if total < 0.499 || total > 0.501 {
			t.Errorf("the %s hold %.2f mm; want 0.5", tier.name, total)
		}
	}
}

// TestOldReadingsRecordedTakeEveryReadingAcrossCompactionSteps: a
// station replaying its logger's memory of March (past the raw
// retention) into a history that holds nothing of it is recorded whole,
// though compaction moves it in steps that end inside a 5-minute bucket
// and retention runs between them, deleting the raw readings the step
// before wrote into the bucket.
func TestOldReadingsRecordedTakeEveryReadingAcrossCompactionSteps(t *testing.T) {
	now := time.Date(2026, 7, 2, 0, 0, 0, 0, time.UTC)
	from := time.Date(2026, 3, 12, 10, 2, 0, 0, time.UTC)
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), &Options{Now: testutil.FixedClock(now), Location: time.UTC})
	ctx := context.Background()
	const n = 3000
	if err := s.Record(ctx, sensors.Batch{Readings: every("Garden", sensors.Temperature, from, n, time.Minute, func(i int) float64 { return 15 })}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	steps := 0
	for more := true; more; steps++ {
		var err error
		if more, err = s.w.compactStep(ctx, now); err != nil {
			t.Fatal(err)
		}
		pruneAll(t, s, now) // the writer's retention, between two ticks' steps
	}
	got := tierCounts(t, s, from.Truncate(24*time.Hour), from.Add(n*time.Minute))
	for _, tier := range rollupTiers {
		if got[tier.table] != n {
			t.Errorf("after compaction in %d steps: the rollups count %v; want %d readings in every tier", steps, got, n)
			break
		}
	}
}

// TestImportAfterForgetPastRawRetentionCountsNothingTwice: forget of a
// time in March, past the raw retention, deletes the 5-minute buckets and
// hours after it but keeps whole the hour and the day that straddle it
// (the raw tier no longer holds what would rebuild them); the backup
// imported again then adds nothing to that hour or day, which count the
// forgotten readings still.
func TestImportAfterForgetPastRawRetentionCountsNothingTwice(t *testing.T) {
	now := time.Date(2026, 7, 2, 0, 0, 0, 0, time.UTC)
	from := time.Date(2026, 3, 12, 9, 0, 0, 0, time.UTC)
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), &Options{Now: testutil.FixedClock(now), Location: time.UTC})
	ctx := context.Background()
	if err := s.Record(ctx, sensors.Batch{Readings: every("Garden", sensors.Temperature, from, 180, time.Minute, func(i int) float64 { return 15 })}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s)
	csv := exportAll(t, s)
	pruneAll(t, s, now)
	if _, err := s.Forget(ctx, time.Date(2026, 3, 12, 10, 17, 30, 0, time.UTC), true); err != nil {
		t.Fatal(err)
	}
	day := from.Truncate(24 * time.Hour)
	for _, span := range []struct {
		name     string
		from, to time.Time
	}{{"the hour of the time", from.Add(time.Hour), from.Add(2 * time.Hour)}, {"its day", day, day.Add(24 * time.Hour)}} {
		before := tierCounts(t, s, span.from, span.to)
		res := importAll(t, s, csv)
		got := tierCounts(t, s, span.from, span.to)
		for _, tier := range rollupTiers[1:] {
			if w := int64(span.to.Sub(span.from) / time.Minute); got[tier.table] > min(w, 180) {
				t.Errorf("%s after the backup imported again (imported %d, left out %d): the rollups count %v, before %v; %s counts more readings than there were", span.name, res.Imported, res.Summarised, got, before, tier.table)
			}
		}
	}
}

// TestImportWhereRawIsKeptLongerThanFiveMinuteRollups: a history that
// keeps its raw readings 90 days and its 5-minute buckets 30 takes a
// reading of two months ago into a 5-minute span it has no reading of,
// in an hour it summarises, and counts nothing twice of the backup
// imported again: the raw tier holds that hour still, and tells.
func TestImportWhereRawIsKeptLongerThanFiveMinuteRollups(t *testing.T) {
	now := time.Date(2026, 7, 2, 0, 0, 0, 0, time.UTC)
	from := now.Add(-60 * 24 * time.Hour).Add(10 * time.Hour)
	o := &Options{Now: testutil.FixedClock(now), Location: time.UTC, RawRetention: 90 * 24 * time.Hour, RollupRetention: 30 * 24 * time.Hour}
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), o)
	ctx := context.Background()
	var rs []sensors.Reading
	for _, r := range every("Garden", sensors.Temperature, from, 30, time.Minute, func(int) float64 { return 15 }) {
		if m := r.Time.Minute(); m < 10 || m >= 15 {
			rs = append(rs, r) // nothing from 10:10 to 10:15
		}
	}
	if err := s.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s)
	csv := exportAll(t, s)
	pruneAll(t, s, now)
	hour := func() int64 { return tierCounts(t, s, from, from.Add(time.Hour))["rollup_1h"] }
	if res := importAll(t, s, csv); res.Imported != 25 || hour() != 25 {
		t.Errorf("the backup imported again: imported %d, left out %d; the hour counts %d readings, want 25", res.Imported, res.Summarised, hour())
	}
	gap := "time,zone,measurement,value,source\n" + from.Add(12*time.Minute).Format(time.RFC3339) + ",Garden,Temperature,16,import\n"
	if res := importAll(t, s, []byte(gap)); res.Imported != 1 || hour() != 26 {
		t.Errorf("a reading of 10:12 imported: imported %d, left out %d; the hour counts %d readings, want 26", res.Imported, res.Summarised, hour())
	}
}

// TestImportBeforeEarliestRefused: readings from before 2000 (here 1969,
// a negative Unix time) are broken lines, named with their time: no
// query can name such a time, and the rollups' buckets before 1970 are
// not those the check for repeats reads, so the same file imported twice
// counted them twice. With --skip-bad the rest is imported, none of
// them.
func TestImportBeforeEarliestRefused(t *testing.T) {
	now := time.Date(2026, 7, 2, 0, 0, 0, 0, time.UTC)
	old := time.Date(1969, 7, 20, 20, 17, 40, 0, time.UTC)
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), &Options{Now: testutil.FixedClock(now), Location: time.UTC})
	csv := "time,zone,measurement,value,source\n" +
		old.Format(time.RFC3339) + ",Garden,Temperature,15,import\n" +
		now.Add(-time.Hour).Format(time.RFC3339) + ",Garden,Temperature,16,import\n"
	_, err := s.Import(context.Background(), strings.NewReader(csv), ImportOptions{})
	if err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), "1969-07-20T20:17:40Z is before 2000-01-01") {
		t.Fatalf("import of a reading of 1969: %v; want line 2 named as before 2000-01-01", err)
	}
	res, err := s.Import(context.Background(), strings.NewReader(csv), ImportOptions{SkipBad: true})
	if err != nil || res.Imported != 1 || res.Bad.N != 1 {
		t.Fatalf("with --skip-bad: %+v, %v; want the reading of 2026 imported, the one of 1969 skipped", res, err)
	}
}
