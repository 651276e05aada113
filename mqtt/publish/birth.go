package publish

import (
	"bytes"
	"sync"
	"sync/atomic"

	"github.com/climated/climated/mqtt"
)

// births fans Home Assistant's birth message ("online" on <discovery
// prefix>/status) out to every publisher that announces to it (the zones'
// and the alerts'): the client takes one handler per filter, so the status
// topic is subscribed once per prefix, while anyone watches it.
type births struct {
	mu    sync.Mutex
	flags map[string][]*atomic.Bool // discovery prefix → the watchers' flags
}

// watchBirth sets flag each time Home Assistant under prefix comes online,
// until the returned stop is called.
func watchBirth(c *mqtt.Client, prefix string, flag *atomic.Bool) (stop func(), err error) {
	b := &sharedOf(c).births
	b.mu.Lock()
	defer b.mu.Unlock()
	status := prefix + "/status"
	if len(b.flags[prefix]) == 0 {
		err := c.Subscribe(status, 1, func(m mqtt.Message) {
			if string(bytes.TrimSpace(m.Payload)) != "online" {
				return
			}
			b.mu.Lock()
			defer b.mu.Unlock()
			for _, f := range b.flags[prefix] {
				f.Store(true)
			}
		})
		if err != nil {
			return nil, err
		}
	}
	if b.flags == nil {
		b.flags = make(map[string][]*atomic.Bool)
	}
	b.flags[prefix] = append(b.flags[prefix], flag)
	return func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		fs := b.flags[prefix]
		for i, f := range fs {
			if f == flag {
				b.flags[prefix] = append(fs[:i:i], fs[i+1:]...)
				break
			}
		}
		if len(b.flags[prefix]) == 0 {
			c.Unsubscribe(status)
		}
	}, nil
}
