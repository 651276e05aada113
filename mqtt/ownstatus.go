package mqtt

import (
	"bytes"
	"context"
	"sync/atomic"
	"time"

	"github.com/climated/climated/internal/loglimit"
	"github.com/climated/climated/mqtt/decode"
)

// The availability topic is the hub's own: "online" while it is connected
// (onConnect), "offline" from its will and its shutdown. Another client
// that publishes there (a retained "offline" from a tool or an old setup)
// would otherwise stand until the hub next reconnects, and Home Assistant
// marks every entity of the hub unavailable meanwhile. So the client
// subscribes to the topic itself and says "online" again when it sees
// anything else there while it runs and is connected.
//
// What it must not answer: its own "offline" at shutdown (Run's loop, the
// only one to answer, has ended by then), and what the broker hands over
// at a connect before the hub has said online on it (the retained will of
// the connection lost, or a persistent session's queue): only what comes
// after the hub's own "online" has come back on the current connection is
// news. It never answers "online", so it cannot answer itself.
const (
	// ownStatusQoS is the subscription's: at QoS 0 a persistent session
	// does not queue the hub's own offline for its next start.
	ownStatusQoS = 0
	// sayOnlineEvery bounds the republications should another client
	// keep saying offline: one a second.
	sayOnlineEvery = time.Second
)

type ownStatus struct {
	online atomic.Uint64          // the connection on which "online" was last seen on the topic
	other  atomic.Pointer[string] // what was seen after it (an excerpt); nil once "online" is seen again
	wake   chan struct{}          // other was set
	limit  *loglimit.Limiter      // of the warnings

	// Run's goroutine only.
	last  time.Time // the last republication
	later bool      // one is scheduled for sayOnlineEvery after last
}

// ownStatusSeen takes a message on the availability topic, on paho's
// goroutine.
func (c *Client) ownStatusSeen(m Message) {
	o := &c.own
	conn := c.conns.Load()
	if string(bytes.TrimSpace(m.Payload)) == "online" {
		o.online.Store(conn)
		o.other.Store(nil)
		return
	}
	if o.online.Load() != conn {
		return // before this connection's "online", which onConnect is sending
	}
	seen := decode.Excerpt(m.Payload, excerptBytes)
	o.other.Store(&seen)
	signal(o.wake)
}

// sayOnlineAgain answers a message other than "online" on the
// availability topic, on Run's goroutine.
func (c *Client) sayOnlineAgain(ctx context.Context) {
	o := &c.own
	seen := o.other.Load()
	if seen == nil || ctx.Err() != nil || !c.Ready() {
		return // answered, stopping, or onConnect's "online" is on its way
	}
	if wait := sayOnlineEvery - time.Since(o.last); wait > 0 {
		if !o.later {
			o.later = true
			time.AfterFunc(wait, func() { signal(o.wake) })
		}
		return
	}
	o.later, o.last = false, time.Now()
	if ok, n := o.limit.Allow("own status", o.last); ok {
		c.log.Warn("mqtt: another client published on this hub's availability topic; saying online again",
			"topic", c.opts.AvailabilityTopic, "payload", *seen, "suppressed", n)
	} else {
		c.log.Debug("mqtt: saying online again", "topic", c.opts.AvailabilityTopic, "payload", *seen)
	}
	if err := c.Publish(ctx, c.opts.AvailabilityTopic, 1, true, []byte("online")); err != nil && ctx.Err() == nil {
		c.log.Warn("mqtt: cannot publish availability", "topic", c.opts.AvailabilityTopic, "err", err)
	}
}
