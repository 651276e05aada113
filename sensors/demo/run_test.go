package demo_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/demo"
)

// sink is a sensors.Sink that keeps what it is given. Its Record returns
// what recordErr says, if set.
type sink struct {
	mu        sync.Mutex
	calls     [][]sensors.Reading
	statuses  []sensors.Status
	recordErr func(ctx context.Context, call int) error
}

func (s *sink) Record(ctx context.Context, b sensors.Batch) error {
	rs := b.Readings
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, rs)
	if s.recordErr != nil {
		return s.recordErr(ctx, len(s.calls))
	}
	return nil
}

func (s *sink) Flush(context.Context) error { return nil }

func (s *sink) Report(st sensors.Status) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.statuses = append(s.statuses, st)
}

func (s *sink) snapshot() ([][]sensors.Reading, []sensors.Status) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls), slices.Clone(s.statuses)
}

// run starts h.Run in the bubble and returns a function that cancels it and
// returns its error.
func run(t *testing.T, h *demo.House, s *sink) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx, s) }()
	return func() error {
		cancel()
		return <-done
	}
}

func TestRun(t *testing.T) {
	const (
		backfill = 2 * time.Hour
		runFor   = 3*time.Hour + 7*time.Second // off every boundary
	)
	tests := []struct {
		name     string
		interval time.Duration
		delay    time.Duration // from the bubble's midnight to the start of Run
	}{
		{"default interval on a boundary", 0, 0},
		{"default interval off a boundary", 0, 17 * time.Second},
		{"10 minutes", 10 * time.Minute, 3 * time.Minute},
		{"90 seconds", 90 * time.Second, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				time.Sleep(tt.delay)
				var logs bytes.Buffer
				h := demo.New(&demo.Options{
					Seed: 9, Interval: tt.interval, Location: time.UTC, Backfill: backfill,
					Logger: slog.New(slog.NewTextHandler(&logs, nil)),
				})
				s := &sink{}
				start := time.Now()
				stop := run(t, h, s)
				time.Sleep(runFor)
				synctest.Wait()
				end := time.Now()
				if err := stop(); err != nil {
					t.Errorf("Run returned %v after cancel, want nil", err)
				}
				calls, statuses := s.snapshot()
				synctest.Wait()
				if later, _ := s.snapshot(); len(later) != len(calls) {
					t.Errorf("%d Record calls after cancel", len(later)-len(calls))
				}
				if !strings.Contains(logs.String(), "level=INFO") || !strings.Contains(logs.String(), "simulated") {
					t.Errorf("log does not say the data is simulated:\n%s", logs.String())
				}
				checkRun(t, h, tt.interval, start.Add(-backfill), start, end, calls, statuses)
			})
		})
	}
}

// checkRun checks that calls hold exactly the steps of every interval
// boundary in [from, end], the backfill (before start) in batches and the rest
// one step per call, each step's readings being At's, with every
// RainInterval boundary's rain.
func checkRun(t *testing.T, h *demo.House, interval time.Duration, from, start, end time.Time, calls [][]sensors.Reading, statuses []sensors.Status) {
	t.Helper()
	if interval == 0 {
		interval = demo.DefaultInterval
	}
	var want []time.Time
	for at := from.Truncate(interval); !at.After(end); at = at.Add(interval) {
		if !at.Before(from) {
			want = append(want, at)
		}
	}

	var steps []time.Time
	byTime := map[time.Time][]sensors.Reading{}
	backfillCalls, liveCalls := 0, 0
	for i, call := range calls {
		if len(call) == 0 {
			t.Fatalf("call %d is empty", i)
		}
		callSteps := 0
		for _, r := range call {
			if r.Zone == "Indoor" && r.Measurement == sensors.Temperature { // one per step
				steps = append(steps, r.Time)
				callSteps++
			}
			byTime[r.Time] = append(byTime[r.Time], r)
		}
		if call[len(call)-1].Time.Before(start) {
			backfillCalls++
			if len(call) > 300 {
				t.Errorf("backfill call %d has %d readings, want a few hundred at most", i, len(call))
			}
		} else {
			liveCalls++
			if callSteps != 1 {
				t.Errorf("live call %d has %d steps, want 1", i, callSteps)
			}
		}
	}
	if !slices.Equal(steps, want) {
		t.Fatalf("steps recorded:\n%v\nwant every %v from %v to %v:\n%v", steps, interval, from, end, want)
	}
	if backfillCalls < 1 || interval == time.Minute && backfillCalls < 2 {
		t.Errorf("%d backfill calls", backfillCalls)
	}

	// Each step is At's readings; between steps come the Rain readings of
	// the RainInterval boundaries, so every boundary has its rain once.
	for _, at := range steps {
		got := byTime[at]
		if want := h.At(at); !reflect.DeepEqual(got, want) {
			t.Errorf("readings at %v:\n%v\nwant At's:\n%v", at, got, want)
		}
	}
	for b := steps[0].Truncate(demo.RainInterval); !b.After(steps[len(steps)-1]); b = b.Add(demo.RainInterval) {
		if b.Before(steps[0]) {
			continue
		}
		var rain []sensors.Reading
		for _, r := range byTime[b] {
			if r.Measurement == sensors.Rain {
				rain = append(rain, r)
			}
		}
		if len(rain) != 1 || rain[0].Value != value(t, h.At(b), "Rain", sensors.Rain) {
			t.Errorf("Rain readings at %v: %v", b, rain)
		}
	}

	// After every Record, a Status per zone; the latest is for the latest step.
	if len(statuses) != 4*len(calls) {
		t.Errorf("%d statuses for %d Record calls, want 4 per call", len(statuses), len(calls))
	}
	latest := map[string]sensors.Status{}
	for _, st := range statuses {
		latest[st.Source] = st
	}
	for _, zone := range h.Zones() {
		st, ok := latest["demo/"+zone]
		if !ok {
			t.Errorf("no status for zone %s", zone)
			continue
		}
		if !slices.Equal(st.Zones, []string{zone}) || !st.LastSeen.Equal(want[len(want)-1]) || st.Err != nil {
			t.Errorf("latest status of %s: %+v, want zone %s seen at %v", zone, st, zone, want[len(want)-1])
		}
	}
}

func TestRunSinkErrors(t *testing.T) {
	bad := errors.New("reading Bedroom from demo/Bedroom: CO2 out of range")
	tests := []struct {
		name      string
		recordErr func(context.Context, int) error
		wantErr   error // from Run
		maxCalls  int   // Record calls
		wantLast  error // Err of the latest status
	}{
		{
			name:      "stopped sink ends Run",
			recordErr: func(context.Context, int) error { return sensors.ErrStopped },
			wantErr:   sensors.ErrStopped,
			maxCalls:  1,
		},
		{
			name:      "rejected readings are reported and Run goes on",
			recordErr: func(context.Context, int) error { return bad },
			maxCalls:  1000,
			wantLast:  bad,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := demo.New(&demo.Options{Location: time.UTC, Backfill: time.Hour})
				s := &sink{recordErr: tt.recordErr}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				done := make(chan error, 1)
				go func() { done <- h.Run(ctx, s) }()
				time.Sleep(10*time.Minute + time.Second)
				synctest.Wait()
				cancel()
				err := <-done
				if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
					t.Errorf("Run returned %v, want %v", err, tt.wantErr)
				}
				calls, statuses := s.snapshot()
				if len(calls) > tt.maxCalls {
					t.Errorf("%d Record calls, want at most %d", len(calls), tt.maxCalls)
				}
				if tt.wantLast != nil {
					if len(calls) < 10 {
						t.Errorf("Run gave up after %d calls", len(calls))
					}
					last := statuses[len(statuses)-1]
					if !errors.Is(last.Err, tt.wantLast) || last.ErrTime.IsZero() {
						t.Errorf("latest status %+v, want Err %v with a time", last, tt.wantLast)
					}
				}
			})
		})
	}
}

func TestRunCancelDuringBackfill(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		s := &sink{recordErr: func(ctx context.Context, call int) error {
			cancel() // the hub shuts down while the backfill is under way
			return ctx.Err()
		}}
		h := demo.New(&demo.Options{Location: time.UTC, Backfill: 30 * 24 * time.Hour})
		if err := h.Run(ctx, s); err != nil {
			t.Errorf("Run returned %v, want nil", err)
		}
		calls, statuses := s.snapshot()
		if len(calls) != 1 {
			t.Errorf("%d Record calls, want 1", len(calls))
		}
		for _, st := range statuses {
			if st.Err != nil {
				t.Errorf("status after shutdown reports %v", st.Err)
			}
		}
	})
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		s := &sink{}
		if err := demo.New(&demo.Options{Backfill: time.Hour}).Run(ctx, s); err != nil {
			t.Errorf("Run with an ended context returned %v", err)
		}
		if calls, _ := s.snapshot(); len(calls) > 1 {
			t.Errorf("%d Record calls with an ended context", len(calls))
		}
	})
}

// TestRunClockJump checks that Run skips a long gap (a suspended machine)
// instead of recording a day of steps at once, and goes on from the new time
// when the clock goes back, without recording any rain twice.
func TestRunClockJump(t *testing.T) {
	midnight := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC) // the bubble's start
	tests := []struct {
		name string
		jump time.Duration
	}{
		{"forward a day", 24 * time.Hour},
		{"back 15 minutes, over recorded steps", -15 * time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var offset atomic.Int64
				h := demo.New(&demo.Options{
					Location: time.UTC,
					Now:      func() time.Time { return time.Now().Add(time.Duration(offset.Load())) },
				})
				s := &sink{}
				stop := run(t, h, s)
				time.Sleep(20*time.Minute + time.Second)
				offset.Store(int64(tt.jump))
				time.Sleep(9 * time.Minute)
				synctest.Wait()
				if err := stop(); err != nil {
					t.Fatal(err)
				}
				calls, _ := s.snapshot()
				var steps []time.Time
				rain := map[time.Time]int{}
				for _, call := range calls {
					steps = append(steps, call[0].Time)
					for _, r := range call {
						if r.Measurement == sensors.Rain {
							rain[r.Time]++
						}
					}
				}
				want := []time.Time{}
				for i := range 21 { // 00:00 … 00:20
					want = append(want, midnight.Add(time.Duration(i)*time.Minute))
				}
				for i := range 9 { // the 9 minutes after the jump
					want = append(want, midnight.Add(tt.jump+time.Duration(21+i)*time.Minute))
				}
				if !slices.EqualFunc(steps, want, time.Time.Equal) {
					t.Errorf("steps\n%v\nwant\n%v", steps, want)
				}
				for at, n := range rain {
					if n > 1 {
						t.Errorf("rain at %v recorded %d times", at, n)
					}
				}
			})
		})
	}
}

// TestBackfill fills a range and nothing outside it: every Interval boundary
// in [from, to) once, equal to At, with the boundary at to left for Run.
func TestBackfill(t *testing.T) {
	h := demo.New(&demo.Options{Seed: 3, Location: time.UTC})
	from := time.Date(2026, 6, 1, 10, 0, 30, 0, time.UTC)
	to := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	s := &sink{}
	if err := h.Backfill(context.Background(), s, from, to); err != nil {
		t.Fatal(err)
	}
	calls, _ := s.snapshot()
	var got []sensors.Reading
	for _, c := range calls {
		got = append(got, c...)
	}
	var want []sensors.Reading
	for ts := time.Date(2026, 6, 1, 10, 1, 0, 0, time.UTC); ts.Before(to); ts = ts.Add(time.Minute) {
		want = append(want, h.At(ts)...)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("backfill recorded %d readings, want %d (the steps 10:01…11:59)", len(got), len(want))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := h.Backfill(ctx, &sink{}, from, to); err != context.Canceled {
		t.Errorf("Backfill with a cancelled context = %v, want context.Canceled", err)
	}
}
