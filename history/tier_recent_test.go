package history

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// The 5-minute and hourly tiers hold only the hours compaction has moved;
// a range read from them must see the readings still in recent too. Before,
// a 30-day range missed the last hour or two, and after a backfill (the
// demo's year) the 30-day and 1-year charts stayed empty for hours.
func TestRollupTiersSeeRecent(t *testing.T) {
	now := time.Date(2026, 6, 15, 12, 30, 0, 0, time.UTC)
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), &Options{Now: testutil.FixedClock(now), Location: time.UTC})
	ctx := context.Background()
	var rs []sensors.Reading
	var rain float64
	for i := 0; i < 90; i++ {
		at := now.Add(time.Duration(i-89) * time.Minute)
		rs = append(rs, sensors.Reading{Zone: "Indoor", Measurement: sensors.Temperature, Value: 20 + float64(i)/100, Time: at, Source: "t"})
		if i%10 == 0 {
			rs = append(rs, sensors.Reading{Zone: "Rain", Measurement: sensors.Rain, Value: 0.2, Time: at, Source: "t"})
			rain += 0.2
		}
	}
	if err := s.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		temp, err := s.Range(ctx, Query{Zone: "Indoor", Measurement: sensors.Temperature, From: now.Add(-30 * 24 * time.Hour), To: now.Add(time.Second)})
		if err != nil {
			t.Fatal(err)
		}
		if temp.Tier == "raw" {
			t.Fatalf("%s: a 30-day range was read from %s; the test wants a rollup tier", when, temp.Tier)
		}
		if temp.Summary == nil || temp.Summary.Count != 90 || temp.Summary.Max != 20.9 || temp.Summary.MaxTime != now.Unix() {
			t.Errorf("%s: 30-day temperature from %s: summary %+v, want 90 readings, max 20.9 at %d", when, temp.Tier, temp.Summary, now.Unix())
		}
		wet, err := s.Range(ctx, Query{Zone: "Rain", Measurement: sensors.Rain, From: now.Add(-365 * 24 * time.Hour), To: now.Add(time.Second)})
		if err != nil {
			t.Fatal(err)
		}
		if wet.Summary == nil || wet.Summary.Sum == nil || *wet.Summary.Sum != sensors.Rain.Round(rain, 0) {
			t.Errorf("%s: 1-year rain from %s: summary %+v, want a sum of %g", when, wet.Tier, wet.Summary, rain)
		}
		days, err := s.Daily(ctx, "Indoor", now.Add(-time.Hour), now.Add(time.Second))
		if err != nil {
			t.Fatal(err)
		}
		if len(days) != 1 || days[len(days)-1].Measurements["Temperature"].Count != 90 {
			t.Errorf("%s: today's daily summary %+v, want 90 temperatures", when, days)
		}
	}
	check("before compaction")
	if err := s.w.compact(ctx, now, true); err != nil {
		t.Fatal(err)
	}
	check("after compaction") // and nothing counted twice
}
