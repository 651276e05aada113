package memtrim

import (
	"context"
	"runtime/debug"
	rtmetrics "runtime/metrics"
	"time"
)

// After a burst of load (many clients at once, a backfill) the Go runtime
// keeps the memory it grew into and hands it back to the OS only slowly:
// minutes from 476 MB measured. On a Pi that memory belongs to the rest of
// the house, so the hub gives it back once the burst is over.
const (
	// Every is how often the hub looks at what it holds.
	Every = 15 * time.Second
	// trimSlack is how far above its quiet level the memory the hub holds
	// may be before it is given back.
	trimSlack = 16 << 20
)

// trimmer decides when to give memory back: when the memory held is more
// than trimSlack above the quiet level and has stopped growing (the burst
// is over; trimming while it lasts would only cost CPU).
type trimmer struct {
	baseline, prev uint64
}

// observe takes the memory held now and says whether to trim.
func (t *trimmer) observe(held uint64) bool {
	defer func() { t.prev = held }()
	if t.baseline == 0 || held < t.baseline {
		t.baseline = held
		return false
	}
	return held > t.baseline+trimSlack && held <= t.prev
}

// trimmed records what is held after a trim: the new quiet level, so that
// memory the hub really needs now (more sessions, say) is not trimmed again
// and again.
func (t *trimmer) trimmed(held uint64) { t.baseline, t.prev = held, held }

// heldMemory is what the process holds from the OS: everything the runtime
// mapped minus the heap it already released.
func heldMemory() uint64 {
	s := []rtmetrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	rtmetrics.Read(s)
	return s[0].Value.Uint64() - s[1].Value.Uint64()
}

// Run gives memory back after bursts, every interval until ctx ends.
func Run(ctx context.Context, every time.Duration) {
	var t trimmer
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		t.round()
	}
}

// round is one look at the memory held, giving it back after a burst.
func (t *trimmer) round() {
	if t.observe(heldMemory()) {
		debug.FreeOSMemory()
		t.trimmed(heldMemory())
	}
}

// FreeStartup gives back what start-up held: the demo house's fill,
// the windows and alert rules read back and the MCP schemas resolved are
// a one-off burst of garbage (a first start held 31 MB resident without
// it, 26 MB with it; scripts/budgets.sh).
func FreeStartup() { debug.FreeOSMemory() }
