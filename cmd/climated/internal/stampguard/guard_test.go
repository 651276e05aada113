package stampguard

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/sensors"
)

// guarded is a hub on a new history whose readings pass g, and the
// readings it recorded.
func guarded(t *testing.T, g *Guard) (*hub.Hub, *[]sensors.Reading) {
	t.Helper()
	h, err := hub.Open(t.Context(), filepath.Join(t.TempDir(), "h.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(context.Background()) })
	h.Admit(g.Admit)
	var got []sensors.Reading
	h.OnRecord(func(_ context.Context, rs []sensors.Reading) { got = append(got, rs...) })
	return h, &got
}

// TestClockGuard: readings stamped in 1970, or well before the newest
// reading already recorded, are refused and reported; the others pass. A
// batch whose readings are all refused leaves its mark unwritten, and
// Record says so (sensors.ErrNotAdmitted).
func TestClockGuard(t *testing.T) {
	var logs bytes.Buffer
	latest := time.Now().Add(-time.Minute)
	g := NewGuard(t.Context(), slog.New(slog.NewTextHandler(&logs, nil)), fixedHistory{latest: latest})
	h, got := guarded(t, g)
	good := sensors.Reading{Zone: "Indoor", Measurement: sensors.Temperature, Value: 21, Time: time.Now().Truncate(time.Second), Source: "i2c1/0x44"}
	epoch, behind := good, good
	epoch.Time = time.Unix(30, 0)
	behind.Time = latest.Add(-2 * time.Hour)
	if err := h.Record(t.Context(), sensors.Batch{Readings: []sensors.Reading{epoch, good, behind, good}, Mark: "some"}); err != nil {
		t.Fatal(err)
	}
	if err := h.Record(t.Context(), sensors.Batch{Readings: []sensors.Reading{epoch}, Mark: "none"}); !errors.Is(err, sensors.ErrNotAdmitted) {
		t.Fatalf("a batch refused whole: %v, want ErrNotAdmitted", err)
	}
	if len(*got) != 2 || !(*got)[0].Time.Equal(good.Time) || !(*got)[1].Time.Equal(good.Time) {
		t.Errorf("recorded %v", *got)
	}
	if !strings.Contains(logs.String(), "readings refused") || !strings.Contains(logs.String(), "1970-01-01T00:00:30Z") {
		t.Errorf("not reported:\n%s", logs.String())
	}
	if err := h.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	marked, err := h.Marked(t.Context(), []string{"some", "none"})
	if err != nil || !marked["some"] || marked["none"] {
		t.Errorf("marks committed: %v %v, want some and not none", marked, err)
	}
}

// fixedHistory is what the guard asks a history at start.
type fixedHistory struct {
	latest time.Time
	ahead  history.Ahead
}

func (h fixedHistory) Latest() time.Time { return h.latest }
func (h fixedHistory) Ahead(context.Context, time.Time) (history.Ahead, error) {
	return h.ahead, nil
}

// A history with readings ahead of the clock (stamped while it was set
// ahead, then corrected) does not hold today's readings back, and the
// start says how many there are, their range, and how to delete them.
func TestClockGuardFutureHistory(t *testing.T) {
	var logs bytes.Buffer
	future := time.Date(2027, 12, 1, 12, 0, 0, 0, time.UTC)
	g := NewGuard(t.Context(), slog.New(slog.NewTextHandler(&logs, nil)),
		fixedHistory{latest: time.Now().Add(-time.Minute), ahead: history.Ahead{Count: 42, First: future.Add(-time.Hour), Last: future}})
	h, got := guarded(t, g)
	good := sensors.Reading{Zone: "Indoor", Measurement: sensors.Temperature, Value: 21, Time: time.Now().Truncate(time.Second), Source: "i2c1/0x44"}
	if err := h.Record(t.Context(), sensors.Batch{Readings: []sensors.Reading{good}}); err != nil {
		t.Fatal(err)
	}
	if len(*got) != 1 {
		t.Errorf("a reading stamped now was refused after a history from the future:\n%s", logs.String())
	}
	for _, want := range []string{"42 readings in the history are stamped ahead of the clock", "from 2027-12-01T11:00:00Z to 2027-12-01T12:00:00Z", "climated forget --ahead"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the start does not say %q:\n%s", want, logs.String())
		}
	}
}
