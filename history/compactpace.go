package history

import (
	"sync"
	"time"
)

// A compaction step is sized by how long the steps before it held the
// database's write lock, not by a row count alone: the lock is the
// history's, and the hub's alerts and any other process wait for it under
// a 5 s busy timeout. 10,000 rows take 70 ms on a 2-core amd64 server but
// 1.5 to 2 s under the race detector, and a slow SD card or a busy Pi
// can be slower still; at a fixed 10,000, a backlog's back-to-back steps
// (the ticker fires again at once after a step longer than a tick) held
// the lock past that timeout, and the alerts' writes failed with
// SQLITE_BUSY. Like retention's pruneBudget, the pace keeps each step near
// compactBudget whatever the machine: it starts at compactStartRows,
// doubles after a full step that took under half the budget, up to
// compactRows, and after a step over the budget shrinks in proportion, to
// no fewer than compactMinRows.
const (
	compactBudget    = 200 * time.Millisecond
	compactStartRows = 1_000
	compactMinRows   = 250
)

// compactPace is the writer's step size. The writer goroutine's ticks and
// Store.Compact (an import) may step at once; the database's write lock
// orders their transactions, and mu the pace.
type compactPace struct {
	mu   sync.Mutex
	rows int
}

// next is the number of rows the next step may move.
func (p *compactPace) next() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.size()
}

func (p *compactPace) size() int {
	if p.rows == 0 {
		p.rows = compactStartRows
	}
	return p.rows
}

// took adapts the size to a step that moved n rows and held the write
// lock for d.
func (p *compactPace) took(n int, d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	rows := p.size()
	switch {
	case d > compactBudget:
		p.rows = max(compactMinRows, int(int64(n)*int64(compactBudget)/int64(d)))
	case n == rows && d < compactBudget/2:
		p.rows = min(compactRows, 2*rows)
	}
}
