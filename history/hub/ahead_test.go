package hub

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// aheadNow is the real time of these tests; aheadBy how far a clock set
// wrong was ahead of it.
var (
	aheadNow = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	aheadBy  = 365 * 24 * time.Hour
)

func indoor(at time.Time, v float64) sensors.Reading {
	return sensors.Reading{Zone: "Indoor", Measurement: sensors.Temperature, Value: v, Time: at, Source: "t"}
}

// lastHour is a reading every 10 minutes of the hour before now, from 20
// °C up by 0.2 °C a step.
func lastHour(now time.Time) []sensors.Reading {
	var rs []sensors.Reading
	for i := range 7 {
		rs = append(rs, indoor(now.Add(time.Duration(i-6)*10*time.Minute), 20+0.2*float64(i)))
	}
	return rs
}

// wantPresent checks that the structure shows the real hour of lastHour.
func wantPresent(t *testing.T, h *Hub, now time.Time) {
	t.Helper()
	z := h.Snapshot().Climate["Indoor"]
	want := map[string]any{"Temperature": 21.2, sensors.KeyWhen: now.Unix(), sensors.KeyMinTemp: 20.0, sensors.KeyMaxTemp: 21.2,
		sensors.KeyDateMinTemp: now.Add(-time.Hour).Unix(), sensors.KeyDateMaxTemp: now.Unix(), sensors.KeyTempTrend: climate.Up}
	for k, v := range want {
		if z[k] != v {
			t.Errorf("%s = %v, want %v (Indoor %v)", k, z[k], v, z)
		}
	}
	if got := h.Latest(); !got.Equal(now) {
		t.Errorf("Latest = %v, want %v", got, now)
	}
}

// (a) The hub's clock was set a year ahead and readings were recorded;
// then the clock was corrected and the hub restarted. The real readings
// recorded since are the latest, with their When and extremes; the year-
// ahead ones stay in the history (get_history finds them, Ahead counts
// them). Before, they stayed the latest and the window, measured from
// them, held none of the real ones.
func TestClockAheadThenCorrected(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	wrong := aheadNow.Add(aheadBy)
	w, err := Open(ctx, path, &history.Options{Now: testutil.FixedClock(wrong), Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Record(ctx, sensors.Batch{Readings: lastHour(wrong)}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}

	h := openTest(t, path, &history.Options{Now: testutil.FixedClock(aheadNow), Location: time.UTC})
	if c := h.Snapshot().Climate; len(c) != 0 {
		t.Errorf("after the restart, before any real reading: %v, want nothing current", c)
	}
	if err := h.Record(ctx, sensors.Batch{Readings: lastHour(aheadNow)}); err != nil {
		t.Fatal(err)
	}
	wantPresent(t, h, aheadNow)

	a, err := h.Ahead(ctx, aheadNow)
	if err != nil || a.Count != 7 || !a.First.Equal(wrong.Add(-time.Hour)) || !a.Last.Equal(wrong) {
		t.Errorf("Ahead = %+v, %v; want 7 from %v to %v", a, err, wrong.Add(-time.Hour), wrong)
	}
	h.Flush(ctx)
	s, err := h.Range(ctx, history.Query{Zone: "Indoor", Measurement: sensors.Temperature, From: wrong.Add(-2 * time.Hour), To: wrong.Add(time.Second), Step: time.Minute})
	if err != nil || s.Summary == nil || s.Summary.Count != 7 {
		t.Errorf("get_history of the year-ahead hour: %+v, %v; want its 7 readings", s, err)
	}

	// A reader beside the hub (climated mcp) sees the same, and follows
	// the real readings that come next.
	r, err := OpenReadOnly(ctx, path, &history.Options{Now: testutil.FixedClock(aheadNow.Add(time.Minute)), Location: time.UTC}, 10*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(ctx)
	wantPresent(t, r, aheadNow)
	h.Record(ctx, sensors.Batch{Readings: []sensors.Reading{indoor(aheadNow.Add(time.Minute), 21.3)}})
	h.Flush(ctx)
	if !testutil.Eventually(func() bool { return r.Snapshot().Climate["Indoor"]["Temperature"] == 21.3 }) {
		t.Fatalf("the reader did not follow the real reading: %v", r.Snapshot().Climate["Indoor"])
	}
}

// (b) An imported file with a row a year ahead: the real readings stay
// the latest, and the row is in the history. Before, the reload after the
// import made it the latest and the window held nothing else.
func TestImportedRowAheadOfTheClock(t *testing.T) {
	ctx := context.Background()
	h := openTest(t, filepath.Join(t.TempDir(), "h.db"), &history.Options{Now: testutil.FixedClock(aheadNow), Location: time.UTC})
	if err := h.Record(ctx, sensors.Batch{Readings: lastHour(aheadNow)}); err != nil {
		t.Fatal(err)
	}
	h.Flush(ctx)
	ahead := aheadNow.Add(aheadBy)
	csv := fmt.Sprintf("time,zone,measurement,value,source\n%s,Indoor,Temperature,35,t\n", ahead.Format(time.RFC3339))
	res, err := h.Import(ctx, strings.NewReader(csv), history.ImportOptions{})
	if err != nil || res.Imported != 1 {
		t.Fatalf("import: %+v, %v", res, err)
	}
	wantPresent(t, h, aheadNow)
	if a, err := h.Ahead(ctx, aheadNow); err != nil || a.Count != 1 || !a.First.Equal(ahead) || !a.Last.Equal(ahead) {
		t.Errorf("Ahead = %+v, %v; want the one row at %v", a, err, ahead)
	}
}
