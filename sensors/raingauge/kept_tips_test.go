package raingauge

import (
	"fmt"
	"math"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/internal/sinktest"
)

// TestTipsKeptWhileRefusedAreRecordedOnceAdmitted: the hub's clock
// guard refuses the gauge's intervals for two and a half days (a Pi without a
// real-time clock that boots without network in a wet week) while it
// rains 1,800 tips, 8.4 mm an hour (503 mm at 0.2794 mm a tip, more than the 500 mm one
// Rain reading may hold). Once the clock is right and the hub admits
// readings again, the kept tips must be recorded — all of them, within
// a few intervals — and the tips that fall afterwards too: the gauge may
// not be stuck for good offering one reading over the catalogue's
// bound that the hub refuses as invalid.
func TestTipsKeptWhileRefusedAreRecordedOnceAdmitted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := newPin()
		g := gauge(t, p, Config{})
		const tips = 1800
		var refusing atomic.Bool
		refusing.Store(true)
		sk := &sinktest.Sink{RecordErr: func(int) error {
			if refusing.Load() {
				return fmt.Errorf("1 readings: %w", sensors.ErrNotAdmitted)
			}
			return nil
		}}
		start := time.Now()
		stop := sinktest.Start(g, sk)
		for i := range tips {
			p.edgeAt(start, time.Duration(i+1)*2*time.Minute) // 60 hours of 8.4 mm an hour
		}
		time.Sleep(time.Until(start.Add(60*time.Hour + time.Minute)))
		refusing.Store(false) // the clock is set right (the sink is called from Run's goroutine only after the next interval)
		synctest.Wait()
		p.edgeAt(start, 60*time.Hour+7*time.Minute) // one more tip, after
		time.Sleep(time.Until(start.Add(61 * time.Hour)))
		stop()
		rs, _ := sk.Snapshot()
		var sum float64
		for _, r := range rs {
			sum += r.Value
		}
		if want := float64(tips+1) * DefaultMMPerTip; math.Abs(sum-want) > 0.01 {
			t.Errorf("recorded %.3f mm in %d readings after the clock was set right, want %.3f (%d tips)", sum, len(rs), want, tips+1)
		}
	})
}
