package hub

import (
	"context"
	"errors"
	"fmt"
)

// part is a goroutine the hub owns: its context's cancel, and done, closed
// when it has returned.
type part struct {
	name   string
	cancel context.CancelFunc
	done   chan struct{}
}

// Start runs run on a goroutine of the hub's, with a context of its own
// that ends when Close reaches it: Close stops the parts in the reverse
// order of their start and waits for each before stopping the one before
// it, and closes the store after the first. What run returns arrives on
// the channel (nil when it stopped because Close asked it to). Started
// after Close, run is not run and the channel says why.
func (h *Hub) Start(name string, run func(ctx context.Context) error) <-chan error {
	result := make(chan error, 1)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closing {
		result <- fmt.Errorf("%s: not started: the hub is closing", name)
		return result
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &part{name: name, cancel: cancel, done: make(chan struct{})}
	h.parts = append(h.parts, p)
	go func() {
		defer close(p.done)
		err := run(ctx)
		if errors.Is(err, context.Canceled) && ctx.Err() != nil {
			err = nil
		}
		result <- err
	}()
	return result
}

// stopParts stops every part, the last started first, waiting for each.
func (h *Hub) stopParts() {
	h.mu.Lock()
	h.closing = true
	parts := h.parts
	h.parts = nil
	h.mu.Unlock()
	for i := len(parts) - 1; i >= 0; i-- {
		parts[i].cancel()
		<-parts[i].done
	}
}
