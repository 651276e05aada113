package history

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestReadingsAfter: the readings after a position come in time then
// series order, whether compaction moved them (raw) or not (recent), each
// once however the pages fall; the count and the amounts' totals agree.
func TestReadingsAfter(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), nil)
	base := time.Now().Add(-3 * time.Hour).Truncate(time.Hour)
	rain := every("Rain", sensors.Rain, base, 180, time.Minute, func(int) float64 { return 0.2 })
	temp := every("Indoor", sensors.Temperature, base, 180, time.Minute, func(i int) float64 { return 20 + float64(i%10)/10 })
	if err := s.Record(ctx, sensors.Batch{Readings: append(rain, temp...)}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s) // the first two hours to raw, the rest stays in recent
	var got []Stored
	from := Position{T: base.Unix() - 1}
	for {
		page, err := s.ReadingsAfter(ctx, from, time.Now().Unix(), 7)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		got = append(got, page...)
		from = page[len(page)-1].Position
	}
	if len(got) != 360 {
		t.Fatalf("%d readings, want 360", len(got))
	}
	for i := 1; i < len(got); i++ {
		if !got[i-1].Position.Before(got[i].Position) {
			t.Fatalf("reading %d at %+v after %+v", i, got[i].Position, got[i-1].Position)
		}
	}
	if got[0].Zone == got[1].Zone || got[0].T != got[1].T || got[2].T != got[0].T+60 || got[5].Value != 20.2 {
		t.Errorf("first readings: %+v", got[:6])
	}
	mid := got[99].Position // the 50th minute
	n, err := s.CountAfter(ctx, mid, time.Now().Unix())
	if err != nil || n != 260 {
		t.Errorf("CountAfter: %d, %v; want 260", n, err)
	}
	next, ok, err := s.NextAfter(ctx, End(base.Unix()+150*60+5))
	if err != nil || !ok || next != base.Unix()+151*60 {
		t.Errorf("NextAfter: %d %v %v; want the 151st minute", next, ok, err)
	}
	if _, ok, _ := s.NextAfter(ctx, End(time.Now().Unix())); ok {
		t.Error("NextAfter the last reading found one")
	}
	totals, err := s.AmountTotals(ctx, mid)
	if err != nil || len(totals) != 1 {
		t.Fatalf("AmountTotals: %v, %v", totals, err)
	}
	for id, n := range totals {
		if n != 50*2000 { // 50 minutes of 0.2 mm, in ten-thousandths
			t.Errorf("series %d: total %d up to the 50th minute, want %d", id, n, 50*2000)
		}
	}
}
