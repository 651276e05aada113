package raingauge

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/internal/sinktest"
)

// pin is a gpiotest pin that records WaitForEdge's timeouts.
type pin struct {
	*gpiotest.Pin
	mu       sync.Mutex
	timeouts []time.Duration
}

func newPin() *pin {
	return &pin{Pin: &gpiotest.Pin{N: "GPIO17", Num: 17, EdgesChan: make(chan gpio.Level, 64)}}
}

func (p *pin) WaitForEdge(timeout time.Duration) bool {
	p.mu.Lock()
	p.timeouts = append(p.timeouts, timeout)
	p.mu.Unlock()
	return p.Pin.WaitForEdge(timeout)
}

// tip sends a falling edge at offset d from the bubble's start.
func (p *pin) edgeAt(start time.Time, d time.Duration) {
	time.Sleep(time.Until(start.Add(d)))
	p.EdgesChan <- gpio.Low
	synctest.Wait()
}

func gauge(t *testing.T, p *pin, cfg Config) *Gauge {
	t.Helper()
	cfg.Pin = "GPIO17"
	g, err := New(cfg, &Options{Open: func(name string) (gpio.PinIn, error) {
		if name != "GPIO17" {
			return nil, errors.New("no such pin")
		}
		return p, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

type rain struct {
	at time.Duration // from the start
	mm float64
}

func check(t *testing.T, start time.Time, rs []sensors.Reading, want []rain) {
	t.Helper()
	if len(rs) != len(want) {
		t.Fatalf("readings %+v, want %+v", rs, want)
	}
	for i, r := range rs {
		if r.Zone != "Rain" || r.Measurement != sensors.Rain || r.Source != "gpio/GPIO17" {
			t.Errorf("reading %d = %+v", i, r)
		}
		if at := r.Time.Sub(start); at != want[i].at || math.Abs(r.Value-want[i].mm) > 1e-9 {
			t.Errorf("reading %d: %g mm at %s, want %g mm at %s", i, r.Value, at, want[i].mm, want[i].at)
		}
	}
}

func TestBouncesAndBursts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := newPin()
		g := gauge(t, p, Config{})
		sk := &sinktest.Sink{}
		start := time.Now()
		stop := sinktest.Start(g, sk)
		synctest.Wait()
		// One tip that bounces for 150 ms: counted once.
		for _, d := range []time.Duration{10000, 10002, 10005, 10040, 10150} {
			p.edgeAt(start, d*time.Millisecond)
		}
		// A burst: a tip every second for 20 s (a cloudburst), each bouncing once.
		for i := range 20 {
			d := time.Minute + time.Duration(i)*time.Second
			p.edgeAt(start, d)
			p.edgeAt(start, d+3*time.Millisecond)
		}
		time.Sleep(time.Until(start.Add(10*time.Minute + time.Second)))
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		rs, statuses := sk.Snapshot()
		check(t, start, rs, []rain{{5 * time.Minute, 5.867}, {10 * time.Minute, 0}}) // 21 × 0.2794 = 5.8674 at three decimals
		if len(statuses) != 2 || statuses[1].Err != nil || !statuses[1].LastSeen.Equal(start.Add(10*time.Minute)) {
			t.Errorf("statuses = %+v", statuses)
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, to := range p.timeouts {
			if to <= 0 {
				t.Fatalf("WaitForEdge(%s): want a positive timeout", to)
			}
		}
	})
}

// TestRestart: the tips of an unfinished interval are recorded when Run
// ends, and the next Run counts on; no tip is lost.
func TestRestart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := newPin()
		g := gauge(t, p, Config{MMPerTip: 0.5})
		sk := &sinktest.Sink{}
		start := time.Now()
		stop := sinktest.Start(g, sk)
		for _, d := range []time.Duration{30, 60, 90} {
			p.edgeAt(start, d*time.Second)
		}
		time.Sleep(time.Until(start.Add(150 * time.Second)))
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		// The hub restarts a few seconds later, with a new gauge on the same pin.
		time.Sleep(5 * time.Second)
		g = gauge(t, p, Config{MMPerTip: 0.5})
		stop = sinktest.Start(g, sk)
		synctest.Wait()
		for _, d := range []time.Duration{200, 250} {
			p.edgeAt(start, d*time.Second)
		}
		time.Sleep(time.Until(start.Add(5*time.Minute + time.Second)))
		stop()
		rs, _ := sk.Snapshot()
		check(t, start, rs, []rain{{150 * time.Second, 1.5}, {5 * time.Minute, 1}})
	})
}

// TestSinkRejects: rain the sink did not take goes into the next
// interval, whether the sink failed (the rejection reported) or its
// guard refused the reading (sensors.ErrNotAdmitted: the hub's clock
// not yet right, which is no fault of the gauge's).
func TestSinkRejects(t *testing.T) {
	for _, tc := range []struct {
		err     error
		faulted bool // the first status carries the error
	}{
		{errors.New("disk full"), true},
		{fmt.Errorf("1 readings: %w", sensors.ErrNotAdmitted), false},
	} {
		t.Run(tc.err.Error(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p := newPin()
				g := gauge(t, p, Config{Interval: time.Minute})
				sk := &sinktest.Sink{RecordErr: func(call int) error {
					if call == 1 {
						return tc.err
					}
					return nil
				}}
				start := time.Now()
				stop := sinktest.Start(g, sk)
				p.edgeAt(start, 10*time.Second)
				p.edgeAt(start, 70*time.Second)
				time.Sleep(time.Until(start.Add(2*time.Minute + time.Second)))
				stop()
				rs, statuses := sk.Snapshot()
				check(t, start, rs, []rain{{2 * time.Minute, 0.559}}) // 2 × 0.2794 = 0.5588 at three decimals
				if len(statuses) != 2 || (statuses[0].Err != nil) != tc.faulted || statuses[1].Err != nil {
					t.Errorf("statuses = %+v, want the first faulted %v, then success", statuses, tc.faulted)
				}
			})
		})
	}
}

func TestSinkStopped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := gauge(t, newPin(), Config{})
		err := g.Run(context.Background(), &sinktest.Sink{RecordErr: func(int) error { return sensors.ErrStopped }})
		if !errors.Is(err, sensors.ErrStopped) {
			t.Errorf("Run = %v, want ErrStopped", err)
		}
	})
}

func TestPinMissing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g, err := New(Config{Pin: "GPIO99"}, &Options{Open: func(name string) (gpio.PinIn, error) {
			return nil, errors.New(`gpio: no pin "GPIO99"`)
		}})
		if err != nil {
			t.Fatal(err)
		}
		sk := &sinktest.Sink{}
		stop := sinktest.Start(g, sk)
		time.Sleep(3 * time.Minute)
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		_, statuses := sk.Snapshot()
		// Tries at 0, 1, 3, 7, 15, 31, 63, 123 s: back-off up to a minute.
		if len(statuses) != 8 || statuses[0].Err == nil || !strings.Contains(statuses[0].Err.Error(), "GPIO99") {
			t.Errorf("%d statuses: %+v", len(statuses), statuses)
		}
	})
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{Pin: "GPIO17"}, ""},
		{Config{}, "pin: empty"},
		{Config{Pin: "GPIO17", MMPerTip: -1}, "mm_per_tip: -1"},
		{Config{Pin: "GPIO17", Interval: time.Second}, "interval: 1s"},
		{Config{Pin: "GPIO17", Debounce: 2 * time.Second}, "debounce: 2s"},
		{Config{Pin: "GPIO17", Edge: "both"}, `edge: "both"`},
	}
	for _, tt := range tests {
		err := tt.cfg.Validate()
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("Validate(%+v) = %v, want %q", tt.cfg, err, tt.want)
		}
	}
}

// TestRunRecordsTheTips: three tips become 0.838 mm of rain in the
// readings Run records (the gauge's resolution, 3 × 0.2794), the last
// interval's recorded as Run ends. The hub's sums of them are the
// history's to test (history/climate).
func TestRunRecordsTheTips(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := &sinktest.Sink{}
		p := newPin()
		g := gauge(t, p, Config{Debounce: time.Millisecond})
		stop := sinktest.Start(g, store)
		synctest.Wait() // the gauge waits for an edge
		start := time.Now()
		for i := range 3 {
			p.edgeAt(start, time.Duration(i+1)*20*time.Millisecond)
		}
		if err := stop(); err != nil { // the unfinished interval is recorded as Run ends
			t.Fatal(err)
		}
		readings, _ := store.Snapshot()
		var total float64
		for _, r := range readings {
			if r.Zone != "Rain" || r.Measurement != sensors.Rain {
				t.Errorf("reading %+v, want the Rain zone's Rain", r)
			}
			total += r.Value
		}
		if math.Round(total*1000)/1000 != 0.838 {
			t.Errorf("rain recorded %v mm in %d readings, want 0.838 mm (3 × 0.2794, at the gauge's resolution)", total, len(readings))
		}
	})
}

// TestAmount: every interval's rain at three decimals, the rounding
// carried on so that sums follow the tips.
func TestAmount(t *testing.T) {
	var carry, total float64
	var got []float64
	for _, n := range []int{1, 0, 1, 1, 3, 0, 10} {
		var mm float64
		mm, carry = amount(n, 0.2794, carry)
		got = append(got, mm)
		total += mm
	}
	want := []float64{0.279, 0, 0.280, 0.279, 0.838, 0, 2.794}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("intervals %v, want %v", got, want)
			break
		}
	}
	// 16 tips: 4.4704 mm; the readings add up to it within 0.0005.
	if math.Abs(total-16*0.2794) > 0.0005 {
		t.Errorf("total %v, want 4.4704 within 0.0005", total)
	}
}
