package hw

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/climated/climated/sensors"
)

// ReadOnce reads every configured sensor once, concurrently, for
// `climated read`: it waits for chips that need a warm-up (an SCD4x about
// 5 s) and for chips with no new measurement yet, within one attempt
// timeout beyond the warm-up. It returns the readings of the sensors that
// answered, sorted by zone and measurement, and the faults of the others
// joined (each an *Error). A Wi-Fi that is absent is left out silently.
// Nothing is halted: the chips stay as a running hub expects them.
func (s *Source) ReadOnce(ctx context.Context) ([]sensors.Reading, error) {
	pool := newBusPool(s.open)
	defer pool.close()
	var (
		mu   sync.Mutex
		all  []sensors.Reading
		errs []error
		wg   sync.WaitGroup
	)
	for _, p := range s.specs {
		wg.Go(func() {
			pl := s.poller(p, pool)
			rs, err := pl.readOnce(ctx)
			pl.stop()
			mu.Lock()
			defer mu.Unlock()
			all = append(all, rs...)
			if err != nil {
				errs = append(errs, err)
			}
		})
	}
	wg.Wait()
	slices.SortFunc(all, func(a, b sensors.Reading) int {
		return cmp.Or(cmp.Compare(a.Zone, b.Zone), cmp.Compare(a.Measurement, b.Measurement), cmp.Compare(a.Source, b.Source))
	})
	slices.SortFunc(errs, func(a, b error) int { return cmp.Compare(a.Error(), b.Error()) })
	return all, errors.Join(errs...)
}

func (p *poller) readOnce(ctx context.Context) ([]sensors.Reading, error) {
	ctx, cancel := context.WithTimeout(ctx, p.chip.warmup+p.timeout)
	defer cancel()
	p.start = time.Now()
	for {
		rs, err := p.attempt(ctx, time.Now())
		var ny *notYet
		wait := notReadyRetry
		switch {
		case err == nil:
			return rs, nil
		case p.optional && errors.Is(err, ErrNoWiFi):
			return nil, nil
		case errors.As(err, &ny):
			wait = time.Until(ny.at)
		case !errors.Is(err, errNotReady):
			return nil, err
		}
		if !sleep(ctx, wait) {
			return nil, p.fault("read", fmt.Errorf("%w: no measurement within %s", ErrTimeout, time.Since(p.start).Round(time.Second)))
		}
	}
}

// sleep waits for d or until ctx ends, and says whether d passed.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
