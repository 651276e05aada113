package dash_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/demo"
)

// feeder records the demo house's readings every second, as a running hub
// does every minute, except for the zones told to fall silent.
type feeder struct {
	store  *hub.Hub
	house  *demo.House
	mu     sync.Mutex
	silent map[string]bool
	paused bool
}

func startFeeder(t *testing.T, store *hub.Hub, house *demo.House) *feeder {
	f := &feeder{store: store, house: house, silent: map[string]bool{}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	t.Cleanup(func() { cancel(); <-done })
	f.step(ctx)
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				f.step(ctx)
			}
		}
	}()
	return f
}

func (f *feeder) step(ctx context.Context) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.paused {
		return
	}
	var rs []sensors.Reading
	for _, r := range f.house.At(time.Now()) {
		if !f.silent[r.Zone] {
			rs = append(rs, r)
		}
	}
	f.store.Record(ctx, sensors.Batch{Readings: rs}) // a Record cut short by the end of the test is no failure
}

func (f *feeder) pause(p bool) {
	f.mu.Lock()
	f.paused = p
	f.mu.Unlock()
}

func (f *feeder) silence(zone string) {
	f.mu.Lock()
	f.silent[zone] = true
	f.mu.Unlock()
}
