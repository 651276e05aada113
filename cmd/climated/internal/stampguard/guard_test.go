package stampguard

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/sensors"
)

type recordSink struct{ got []sensors.Reading }

func (s *recordSink) Record(_ context.Context, rs []sensors.Reading) error {
	s.got = append(s.got, rs...)
	return nil
}
func (s *recordSink) Report(sensors.Status) {}

func (s *recordSink) Flush(context.Context) error { return nil }

// TestClockGuard: readings stamped in 1970, or well before the newest
// reading already recorded, are refused and reported; the others pass.
func TestClockGuard(t *testing.T) {
	var logs bytes.Buffer
	latest := time.Now().Add(-time.Minute)
	sink := &recordSink{}
	g := NewGuard(t.Context(), sink, slog.New(slog.NewTextHandler(&logs, nil)), fixedHistory{latest: latest})
	good := sensors.Reading{Zone: "Indoor", Measurement: sensors.Temperature, Value: 21, Time: time.Now(), Source: "i2c1/0x44"}
	epoch, behind := good, good
	epoch.Time = time.Unix(30, 0)
	behind.Time = latest.Add(-2 * time.Hour)
	if err := g.Record(t.Context(), []sensors.Reading{epoch, good, behind, good}); err != nil {
		t.Fatal(err)
	}
	if len(sink.got) != 2 || !sink.got[0].Time.Equal(good.Time) || !sink.got[1].Time.Equal(good.Time) {
		t.Errorf("recorded %v", sink.got)
	}
	if !strings.Contains(logs.String(), "readings refused") || !strings.Contains(logs.String(), "1970-01-01T00:00:30Z") {
		t.Errorf("not reported:\n%s", logs.String())
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
	sink := &recordSink{}
	future := time.Date(2027, 12, 1, 12, 0, 0, 0, time.UTC)
	g := NewGuard(t.Context(), sink, slog.New(slog.NewTextHandler(&logs, nil)),
		fixedHistory{latest: time.Now().Add(-time.Minute), ahead: history.Ahead{Count: 42, First: future.Add(-time.Hour), Last: future}})
	good := sensors.Reading{Zone: "Indoor", Measurement: sensors.Temperature, Value: 21, Time: time.Now(), Source: "i2c1/0x44"}
	if err := g.Record(t.Context(), []sensors.Reading{good}); err != nil {
		t.Fatal(err)
	}
	if len(sink.got) != 1 {
		t.Errorf("a reading stamped now was refused after a history from the future:\n%s", logs.String())
	}
	for _, want := range []string{"42 readings in the history are stamped ahead of the clock", "from 2027-12-01T11:00:00Z to 2027-12-01T12:00:00Z", "climated forget --ahead"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the start does not say %q:\n%s", want, logs.String())
		}
	}
}
