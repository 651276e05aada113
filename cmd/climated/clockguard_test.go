package main

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

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
	g := newClockGuard(sink, slog.New(slog.NewTextHandler(&logs, nil)), latest)
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

// A history whose newest reading is days ahead (the clock was set wrong,
// then corrected) must not hold back today's readings until real time
// catches up with it.
func TestClockGuardFutureHistory(t *testing.T) {
	var logs bytes.Buffer
	sink := &recordSink{}
	g := newClockGuard(sink, slog.New(slog.NewTextHandler(&logs, nil)), time.Now().Add(72*time.Hour))
	good := sensors.Reading{Zone: "Indoor", Measurement: sensors.Temperature, Value: 21, Time: time.Now(), Source: "i2c1/0x44"}
	if err := g.Record(t.Context(), []sensors.Reading{good}); err != nil {
		t.Fatal(err)
	}
	if len(sink.got) != 1 {
		t.Errorf("a reading stamped now was refused after a history from the future:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), "newest recorded reading is in the future") {
		t.Errorf("the future history is not reported:\n%s", logs.String())
	}
}
