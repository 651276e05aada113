package raingauge

import (
	"fmt"
	"math"
	"testing"
	"testing/synctest"
	"time"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/internal/sinktest"
)

// TestKeptTipsThroughRefusedAdmittedRefusedAreCountedOnce: a gauge of a
// tiny (0.01 mm) and of the largest allowed (10 mm) tip, its rain over
// 500 mm kept while the hub refuses its readings for three hours, then
// admitted for ten minutes (part of the kept tips drained), refused
// again for three hours, then admitted: every tip is recorded exactly
// once in all, no reading over the catalogue's bound.
func TestKeptTipsThroughRefusedAdmittedRefusedAreCountedOnce(t *testing.T) {
	for _, c := range []struct {
		mm   float64
		tips int
	}{{0.01, 150000}, {10, 180}, {DefaultMMPerTip, 3600}} {
		t.Run(fmt.Sprint(c.mm), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p := newPin()
				g := gauge(t, p, Config{MMPerTip: c.mm, Debounce: time.Millisecond})
				start := time.Now()
				refused := func() bool {
					d := time.Since(start)
					return d < 3*time.Hour || (d >= 3*time.Hour+10*time.Minute && d < 6*time.Hour+10*time.Minute)
				}
				sk := &sinktest.Sink{RecordErr: func(int) error {
					if refused() {
						return fmt.Errorf("1 readings: %w", sensors.ErrNotAdmitted)
					}
					return nil
				}}
				stop := sinktest.Start(g, sk)
				step := 6 * time.Hour / time.Duration(c.tips)
				for i := range c.tips {
					p.edgeAt(start, time.Duration(i+1)*step)
				}
				time.Sleep(time.Until(start.Add(9 * time.Hour)))
				stop()
				rs, _ := sk.Snapshot()
				var sum, most float64
				for _, r := range rs {
					sum += r.Value
					most = max(most, r.Value)
				}
				if want := float64(c.tips) * c.mm; math.Abs(sum-want) > 0.01 || most > 500 {
					t.Errorf("recorded %.3f mm in %d readings (largest %.3f), want %.3f (%d tips)", sum, len(rs), most, want, c.tips)
				}
			})
		})
	}
}

// TestTipOverTheReadingBoundIsRefusedByTheConfiguration: a tip of 600
// mm, more than one Rain reading may hold, would never be recorded; the
// configuration refuses it.
func TestTipOverTheReadingBoundIsRefusedByTheConfiguration(t *testing.T) {
	_, err := New(Config{Pin: "GPIO17", MMPerTip: 600}, nil)
	if err == nil {
		t.Fatal("a gauge of 600 mm a tip was made")
	}
}
