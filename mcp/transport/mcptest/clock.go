package mcptest

import (
	"sync"
	"time"
)

// FakeClock is a clock that moves only when told; set T before use.
type FakeClock struct {
	mu sync.Mutex
	T  time.Time
}

// Now is the clock's time, for Options.Now.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.T
}

// Add moves the clock on by d.
func (c *FakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.T = c.T.Add(d)
}
