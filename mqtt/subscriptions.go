package mqtt

// The client's subscriptions: what the hub registers (Subscribe), kept
// in step with the broker at every (re)connect (syncSubscriptions), and
// the messages handed to their handlers (dispatch).

import (
	"context"
	"fmt"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// Message is one message as the broker delivered it.
type Message struct {
	Topic    string
	Payload  []byte
	Retained bool
	QoS      byte
	// Duplicate is the DUP flag: the broker may have delivered this
	// message before (to an earlier connection of the session).
	Duplicate bool
	// ID is the packet identifier of a QoS 1 or 2 message; a broker
	// delivers a message again with the same one.
	ID uint16
	// Oversized is the size of a payload larger than the client reads
	// (see limitconn.go): it was thrown away as it arrived, and Payload
	// is nil. 0 for every other message.
	Oversized int

	ack func()
}

// Ack acknowledges the message to the broker, once; only handlers
// subscribed with SubscribeManualAck need to. The broker delivers an
// unacknowledged QoS 1 message again when the session resumes. Ack may be
// called from any goroutine, and after the connection is gone (paho then
// drops the acknowledgement and the broker delivers the message again).
func (m Message) Ack() {
	if m.ack != nil {
		m.ack()
	}
}

// WithAck is m acknowledged by calling ack: a message that did not come
// from the broker (a handler's tests) with an acknowledgement to watch.
func (m Message) WithAck(ack func()) Message {
	m.ack = ack
	return m
}

// Handler receives the messages of a subscription. It runs on the MQTT
// client's own goroutine and must not block: paho delivers messages in
// order from one goroutine, so a handler that waits (on a publish, a full
// channel, a lock held elsewhere) stalls every subscription and the
// acknowledgements with them.
type Handler func(Message)

type subscription struct {
	qos       byte
	handler   Handler
	manualAck bool
}

// Ready reports whether the connection is up and set up: subscribed and
// said online. Publishing before would be undone by the republication
// that follows the session's start.
func (c *Client) Ready() bool {
	return c.Connected() && c.ready.Load() == c.conns.Load()
}

// syncSubscriptions subscribes what is registered but not yet active and
// unsubscribes what is active but no longer registered.
//
// A stop (ctx ending: a reload, a shutdown) cuts the waits for the
// broker short; that is planned, logged at Debug, and not retried.
func (c *Client) syncSubscriptions(ctx context.Context, conn uint64) {
	if !c.Connected() || ctx.Err() != nil {
		return
	}
	add, drop := c.subscriptionChanges(conn)
	failed, stopped := c.subscribeAll(ctx, conn, add)
	if stopped || c.unsubscribeAll(ctx, drop) {
		return
	}
	if failed {
		time.AfterFunc(resubscribeIn, func() { signal(c.wake) })
	}
}

// subscriptionChanges lists the filters to subscribe on connection conn
// (registered, and the hub's own status topic) and those to unsubscribe
// (active but no longer registered, or left by an earlier run).
func (c *Client) subscriptionChanges(conn uint64) (add, drop []string) {
	own := c.opts.AvailabilityTopic
	c.mu.RLock()
	defer c.mu.RUnlock()
	for f := range c.subs {
		if c.active[f] != conn {
			add = append(add, f)
		}
	}
	if _, ok := c.subs[own]; !ok && c.active[own] != conn {
		add = append(add, own)
	}
	for f := range c.active {
		if _, ok := c.subs[f]; !ok && f != own {
			drop = append(drop, f)
		}
	}
	if c.journal != nil {
		// Left by an earlier run whose configuration had them.
		drop = append(drop, c.journal.stale(func(f string) bool {
			_, registered := c.subs[f]
			_, active := c.active[f]
			return registered || active || f == own
		})...)
	}
	return add, drop
}

// subscribeAll subscribes the filters add on connection conn; failed says
// one failed (to try again), stopped that ctx ended.
func (c *Client) subscribeAll(ctx context.Context, conn uint64, add []string) (failed, stopped bool) {
	for _, f := range add {
		c.mu.RLock()
		s, ok := c.subs[f]
		c.mu.RUnlock()
		if !ok && f == c.opts.AvailabilityTopic {
			s, ok = subscription{qos: ownStatusQoS}, true
		}
		if !ok {
			continue
		}
		// No callback of its own: paho hands every message to dispatch.
		if err := wait(ctx, c.pc.Subscribe(f, s.qos, nil)); err != nil {
			if ctx.Err() != nil {
				c.log.Debug("mqtt: stopped while subscribing", "topic", f, "err", err)
				return failed, true
			}
			c.log.Error("mqtt: subscribe failed", "topic", f, "err", err)
			failed = true
			continue
		}
		c.log.Debug("mqtt: subscribed", "topic", f, "qos", s.qos)
		c.setActive(f, conn)
		c.noteFilter(f, true)
	}
	return failed, false
}

// unsubscribeAll unsubscribes the filters drop; it reports whether ctx
// ended first.
func (c *Client) unsubscribeAll(ctx context.Context, drop []string) (stopped bool) {
	for _, f := range drop {
		if err := wait(ctx, c.pc.Unsubscribe(f)); err != nil {
			if ctx.Err() != nil {
				c.log.Debug("mqtt: stopped while unsubscribing", "topic", f, "err", err)
				return true
			}
			c.log.Warn("mqtt: unsubscribe failed", "topic", f, "err", err)
			c.setActive(f, 0)
			continue
		}
		c.log.Debug("mqtt: unsubscribed", "topic", f)
		c.setActive(f, 0)
		c.noteFilter(f, false)
	}
	return false
}

// noteFilter keeps the broker's subscriptions in the session file.
func (c *Client) noteFilter(f string, on bool) {
	if c.journal == nil {
		return
	}
	if err := c.journal.subscribed(f, on); err != nil {
		c.log.Warn("mqtt: cannot note the subscription in the session file", "topic", f, "err", err)
	}
}

// setActive records that f was subscribed on connection conn; 0 means
// unsubscribed.
func (c *Client) setActive(f string, conn uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if conn != 0 {
		c.active[f] = conn
	} else {
		delete(c.active, f)
	}
}

// dispatch is paho's handler of every message: it hands the message to
// the handler of every registered filter that matches, looked up at each
// message so that a forgotten filter's late messages go nowhere. It
// acknowledges the message unless a handler subscribed with
// SubscribeManualAck took it; one no filter matches (left on the broker
// by a persistent session of an earlier configuration) is acknowledged
// and dropped.
func (c *Client) dispatch(_ paho.Client, pm paho.Message) {
	m := Message{Topic: pm.Topic(), Payload: pm.Payload(), Retained: pm.Retained(), QoS: pm.Qos(),
		Duplicate: pm.Duplicate(), ID: pm.MessageID(), ack: pm.Ack}
	if n, ok := oversizedSize(m.Payload); ok {
		m.Payload, m.Oversized = nil, n
	}
	var hs []subscription
	c.mu.RLock()
	for f, s := range c.subs {
		if Matches(f, m.Topic) {
			hs = append(hs, s)
		}
	}
	c.mu.RUnlock()
	if m.Topic == c.opts.AvailabilityTopic {
		c.ownStatusSeen(m)
	}
	manual := false
	for _, s := range hs {
		s.handler(m)
		manual = manual || s.manualAck
	}
	if !manual {
		pm.Ack()
	}
}

// Subscribe registers h for filter; the filter is subscribed now if the
// client is connected and again after every reconnect. h must not block.
// Messages are acknowledged once h returns.
func (c *Client) Subscribe(filter string, qos byte, h Handler) error {
	return c.subscribe(filter, subscription{qos: qos, handler: h})
}

// SubscribeManualAck is Subscribe for a handler that acknowledges each
// message itself (Message.Ack) once it is safe: the broker keeps a QoS 1
// message until then and delivers it again if the hub stops first. It
// must acknowledge every message eventually, in the order received: the
// broker sends no more than its in-flight window (mosquitto's
// max_inflight_messages, 20 by default) of unacknowledged messages.
func (c *Client) SubscribeManualAck(filter string, qos byte, h Handler) error {
	return c.subscribe(filter, subscription{qos: qos, handler: h, manualAck: true})
}

func (c *Client) subscribe(filter string, s subscription) error {
	if err := ValidFilter(filter); err != nil {
		return fmt.Errorf("subscribe %q: %w", filter, err)
	}
	if s.qos > 2 {
		return fmt.Errorf("subscribe %q: qos %d", filter, s.qos)
	}
	c.mu.Lock()
	if _, dup := c.subs[filter]; dup {
		c.mu.Unlock()
		return fmt.Errorf("subscribe %q: already subscribed", filter)
	}
	c.subs[filter] = s
	c.mu.Unlock()
	signal(c.wake)
	return nil
}

// Unsubscribe forgets filter; its handler gets no further messages, and
// the broker forgets the subscription (also that of a persistent session).
func (c *Client) Unsubscribe(filter string) {
	c.mu.Lock()
	delete(c.subs, filter)
	c.mu.Unlock()
	signal(c.wake)
}
