package history

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// exportAll is the whole history of s in export's CSV.
func exportAll(t *testing.T, s *Store) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := s.Export(context.Background(), &buf, Export{}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func importAll(t *testing.T, s *Store, csv []byte) ImportResult {
	t.Helper()
	res, err := s.Import(context.Background(), bytes.NewReader(csv), ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestImportAgainCountsNothingTwice: a station's ten days in March and
// the house's last ten days, exported, then imported back twice into the
// same history in July (a backup restored over itself), change no day's
// summary: not
// its counts, means, or rain sums. The March days are past the raw
// retention and pruned from it, so the history keeps only their
// 5-minute buckets, and the raw tier cannot tell their readings for
// repeats; before, each import added every March reading again (144
// temperatures a day became 288, 1.2 mm of rain 2.4 mm), and every rain
// reading of the last ten days too, as amounts at one instant add.
func TestImportAgainCountsNothingTwice(t *testing.T) {
	now := time.Date(2026, 7, 2, 0, 0, 0, 0, time.UTC)
	march, recent := time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC), now.Add(-10*24*time.Hour)
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), &Options{Now: testutil.FixedClock(now), Location: time.UTC})
	ctx := context.Background()
	if err := s.Record(ctx, sensors.Batch{Readings: append(keepHouse(march), keepHouse(recent)...)}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s)
	csv := exportAll(t, s) // a backup made before the March days went past the raw retention
	pruneAll(t, s, now)
	pruned := exportAll(t, s)
	oldDay, newDay := march.Add(2*24*time.Hour), recent.Add(2*24*time.Hour)
	want := []string{
		dailyJSON(t, s, "Garden", oldDay, oldDay.Add(24*time.Hour)),
		dailyJSON(t, s, "Garden", newDay, newDay.Add(24*time.Hour)),
	}
	for i := range 2 {
		res := importAll(t, s, csv)
		if res.Summarised == 0 {
			t.Errorf("import %d: none of the March readings left out as summarised already", i+1)
		}
		compactNow(t, s)
		if _, err := s.keepDays(ctx, s.wdb, time.Hour); err != nil {
			t.Fatal(err)
		}
		for j, day := range []time.Time{oldDay, newDay} {
			if got := dailyJSON(t, s, "Garden", day, day.Add(24*time.Hour)); got != want[j] {
				t.Errorf("import %d: the Garden on %s:\n%s\nbefore the import:\n%s", i+1, day.Format(time.DateOnly), got, want[j])
			}
		}
	}
	pruneAll(t, s, now)
	if got := exportAll(t, s); !bytes.Equal(got, pruned) {
		t.Errorf("the history exported after two imports of the backup differs from before them (%d bytes, was %d)", len(got), len(pruned))
	}
}

// TestImportPastRawRetentionFillsOnlyEmptySpans: an import of old readings
// into a history that holds none of their time takes them all, into the
// rollups (the raw tier lets them go at its next retention pass); one
// reading in a span the history summarises already is left out and
// counted, and one in a span it holds nothing of beside it is taken.
func TestImportPastRawRetentionFillsOnlyEmptySpans(t *testing.T) {
	now := time.Date(2026, 7, 2, 0, 0, 0, 0, time.UTC)
	at := time.Date(2026, 3, 12, 10, 0, 0, 0, time.UTC)
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), &Options{Now: testutil.FixedClock(now), Location: time.UTC})
	ctx := context.Background()
	line := func(t time.Time, v string) string {
		return t.Format(time.RFC3339) + ",Garden,Temperature," + v + ",import\n"
	}
	first := "time,zone,measurement,value,source\n" + line(at, "5") + line(at.Add(time.Minute), "6")
	if res := importAll(t, s, []byte(first)); res.Imported != 2 || res.Summarised != 0 {
		t.Fatalf("first import of two old readings: imported %d, left out %d", res.Imported, res.Summarised)
	}
	pruneAll(t, s, now)
	// 10:02 falls in the 10:00 bucket, summarised; 10:05 in the next.
	second := "time,zone,measurement,value,source\n" + line(at.Add(2*time.Minute), "9") + line(at.Add(5*time.Minute), "7")
	if res := importAll(t, s, []byte(second)); res.Imported != 1 || res.Summarised != 1 {
		t.Errorf("second import: imported %d, left out %d; want 1 and 1", res.Imported, res.Summarised)
	}
	got, err := s.Range(ctx, Query{Zone: "Garden", Measurement: sensors.Temperature, From: at, To: at.Add(10 * time.Minute), Step: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if sum := got.Summary; sum == nil || sum.Count != 3 || sum.Max != 7 {
		t.Errorf("the span after both imports: %+v; want 3 readings, the highest 7 (the 9 left out)", sum)
	}
}

// TestRecordedAgainPastRawRetentionCountsOnce: a device that sends its
// readings of months ago again (a logger replaying its memory) adds
// nothing to the hours past the 5-minute rollups' retention either: the
// hourly buckets are what the history holds of them.
func TestRecordedAgainPastRawRetentionCountsOnce(t *testing.T) {
	now := time.Date(2026, 7, 2, 0, 0, 0, 0, time.UTC)
	o := &Options{Now: testutil.FixedClock(now), Location: time.UTC, RawRetention: 24 * time.Hour, RollupRetention: 30 * 24 * time.Hour}
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), o)
	ctx := context.Background()
	from := time.Date(2026, 3, 12, 0, 0, 0, 0, time.UTC)
	rs := every("Garden", sensors.Rain, from, 48, 15*time.Minute, func(i int) float64 { return 0.2 })
	count := func() *Summary {
		t.Helper()
		got, err := s.Range(ctx, Query{Zone: "Garden", Measurement: sensors.Rain, From: from, To: from.Add(12 * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		return got.Summary
	}
	for i := range 2 {
		if err := s.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
			t.Fatal(err)
		}
		compactNow(t, s)
		pruneAll(t, s, now)
		if sum := count(); sum == nil || sum.Count != 48 || sum.Sum == nil || *sum.Sum < 9.59 || *sum.Sum > 9.61 {
			t.Fatalf("after recording 48 rain readings of 0.2 mm %d times: %+v; want 48 readings, 9.6 mm", i+1, sum)
		}
	}
}

// TestPruneDeletesWholeBuckets: retention with its cutoff inside a
// 5-minute bucket keeps all of that bucket's raw readings or none, so the
// raw tier never holds a part of a bucket the rollups summarise whole.
func TestPruneDeletesWholeBuckets(t *testing.T) {
	base := time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC)
	// The cutoff falls at 10:02:30, inside the 10:00 bucket.
	now := base.Add(DefaultRawRetention + 150*time.Second)
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), &Options{Now: testutil.FixedClock(now), Location: time.UTC})
	ctx := context.Background()
	if err := s.Record(ctx, sensors.Batch{Readings: every("Indoor", sensors.Temperature, base.Add(-10*time.Minute), 20, time.Minute, func(i int) float64 { return 20 })}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s)
	pruneAll(t, s, now)
	var n int
	var oldest int64
	if err := s.rdb.QueryRow("SELECT count(*), min(t) FROM raw").Scan(&n, &oldest); err != nil {
		t.Fatal(err)
	}
	if n != 10 || oldest != base.Unix() {
		t.Errorf("raw after retention: %d readings from %s; want the 10 from the 10:00 bucket on (%s)", n, time.Unix(oldest, 0).UTC(), base)
	}
}

// TestMeasuredImportTakesASummarisedSimulatedSpan: the demo's simulated
// readings of March, past the raw retention, then a file whose simulated
// line of a March span is left out as summarised already and whose
// measured line of the same span takes the series from the demo (its
// simulated readings go from every tier): the measured reading is
// imported, though the same transaction found the span summarised a line
// before.
func TestMeasuredImportTakesASummarisedSimulatedSpan(t *testing.T) {
	now := time.Date(2026, 7, 2, 0, 0, 0, 0, time.UTC)
	at := time.Date(2026, 3, 12, 10, 0, 0, 0, time.UTC)
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), &Options{Now: testutil.FixedClock(now), Location: time.UTC})
	ctx := context.Background()
	demo := sensors.SimulatedPrefix + "house"
	rs := every("Garden", sensors.Temperature, at, 10, time.Minute, func(int) float64 { return 15 })
	for i := range rs {
		rs[i].Source = demo
	}
	if err := s.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s)
	pruneAll(t, s, now)
	csv := "time,zone,measurement,value,source\n" +
		at.Add(time.Minute).Format(time.RFC3339) + ",Garden,Temperature,16," + demo + "\n" +
		at.Add(2*time.Minute).Format(time.RFC3339) + ",Garden,Temperature,4,station\n"
	if res := importAll(t, s, []byte(csv)); res.Imported != 1 || res.Summarised != 1 {
		t.Errorf("import: imported %d, left out %d; want the measured line imported, the simulated one left out", res.Imported, res.Summarised)
	}
	got, err := s.Range(ctx, Query{Zone: "Garden", Measurement: sensors.Temperature, From: at, To: at.Add(10 * time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	if sum := got.Summary; sum == nil || sum.Count != 1 || sum.Min != 4 {
		t.Errorf("the span after the import: %+v; want the measured 4 alone", sum)
	}
}

// TestOneReadingYearsOldKeepsTheCheckSmall: two years of hourly
// readings, then a chunk whose readings span them all (one stamped two
// years back, as a device's wrong clock or its replayed memory gives,
// beside the latest): the check of what the history summarises reads at
// most maxLoaded buckets of a tier over the span and looks up the rest a
// bucket a reading, rather than holding the 17,300 hours (18,064 buckets
// in all before the bound), and still leaves out a repeat and takes a
// reading into an hour the history holds nothing of.
func TestOneReadingYearsOldKeepsTheCheckSmall(t *testing.T) {
	now := time.Date(2026, 7, 2, 0, 0, 0, 0, time.UTC)
	old := time.Date(2024, 7, 10, 10, 0, 0, 0, time.UTC)
	o := &Options{Now: testutil.FixedClock(now), Location: time.UTC, RawRetention: 24 * time.Hour, RollupRetention: 24 * time.Hour}
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), o)
	ctx := context.Background()
	hours := int(now.Sub(old) / time.Hour)
	if err := s.Record(ctx, sensors.Batch{Readings: every("Garden", sensors.Temperature, old, hours, time.Hour, func(int) float64 { return 20 })}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s)
	pruneAll(t, s, now)
	again := []sensors.Reading{
		{Zone: "Garden", Measurement: sensors.Temperature, Value: 20, Time: old, Source: "test"},                     // a repeat
		{Zone: "Garden", Measurement: sensors.Temperature, Value: 6, Time: old.Add(-24 * time.Hour), Source: "test"}, // an hour of nothing
		{Zone: "Garden", Measurement: sensors.Temperature, Value: 20, Time: now.Add(-time.Hour), Source: "test"},
	}
	_, id, err := s.series(ctx, "Garden", sensors.Temperature)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := s.wdb.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	check := newSummarised(again)
	for i, r := range again[:2] {
		sealed, err := check.sealed(ctx, tx, id, r.Time.Unix())
		if err != nil {
			t.Fatal(err)
		}
		if want := i == 0; sealed != want {
			t.Errorf("reading at %s: sealed %v; want %v (a repeat in a summarised hour is, one in an empty hour is not)", r.Time, sealed, want)
		}
	}
	if n, most := len(check.held), len(rollupTiers)*(maxLoaded+len(again)); n > most {
		t.Errorf("the check holds %d buckets for a chunk over %d hours of history; want at most %d (maxLoaded a tier, and a bucket a reading)", n, hours, most)
	}
}
