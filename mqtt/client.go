package mqtt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/climated/climated/internal/loglimit"
)

// Timeouts of single broker operations.
const (
	opTimeout     = 10 * time.Second
	firstBackoff  = time.Second
	resubscribeIn = 5 * time.Second
	// The offline message at shutdown and paho's quiesce time.
	goodbyeTimeout = time.Second
	quiesce        = 250 // ms
	// lingerTimeout bounds the shutdown's wait for the ingest's last
	// commit and acknowledgements.
	lingerTimeout = 5 * time.Second
	// logInterval: a kind of warning gets a log line at most this often.
	logInterval = time.Minute
	// excerptBytes is how much of an unexpected payload a log line shows.
	excerptBytes = 120
)

// DefaultMaxPayload is the largest payload the client reads until a part
// raises it (AllowPayload); the ingest's max_payload defaults to it.
const DefaultMaxPayload = 64 << 10

// ErrNotConnected is returned by Publish while the broker is unreachable.
var ErrNotConnected = errors.New("not connected to the MQTT broker")

// Client is the hub's one connection to the broker, shared by the ingest
// and the publisher. Run keeps it up: it connects with exponential
// back-off, subscribes every registered filter again on every connect,
// and keeps the retained availability topic: "online" while connected,
// also when another client publishes something else there (ownstatus.go),
// "offline" as the last will and at shutdown.
//
// With a stable client id (ClientID or SessionFile) the session is
// persistent: the broker keeps the subscriptions and queues QoS 1 messages
// while the hub is away, and delivers what the hub had not acknowledged
// again. Without one the session is clean.
type Client struct {
	opts    Options
	log     *slog.Logger
	pc      paho.Client
	journal *Journal // nil without a SessionFile
	clean   bool

	mu     sync.RWMutex
	subs   map[string]subscription
	own    ownStatus         // watches the availability topic (ownstatus.go)
	active map[string]uint64 // filter → the connection it was subscribed on
	conns  atomic.Uint64     // connections paho made (OnConnect calls)
	ready  atomic.Uint64     // the connection whose onConnect has finished

	wake chan struct{} // subscriptions changed
	up   chan struct{} // paho connected
	down chan struct{} // paho lost the connection

	sessions atomic.Uint64
	running  atomic.Bool
	// maxPayload is the largest payload read from the broker; a larger
	// one is thrown away as it arrives (limitConn). The ingest raises it
	// to its max_payload.
	maxPayload atomic.Int64
	// lingering counts the parts whose last acknowledgements the
	// shutdown waits for (see Linger).
	lingering sync.WaitGroup
	// lingerMu orders Linger's Add before shutdown's Wait: an ingest that
	// starts while the client is shutting down (a hub stopped at once)
	// must not Add to a WaitGroup being waited on.
	lingerMu  sync.Mutex
	lingerEnd bool // shutdown has begun: linger adds nothing

	errMu   sync.Mutex
	lastErr error
	errTime time.Time
}

// NewClient checks opts and prepares the connection; nothing happens on
// the network until Run.
func NewClient(opts Options) (*Client, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	var sess *Journal
	if opts.SessionFile != "" {
		var err error
		if sess, err = openJournal(opts.SessionFile, opts.ClientID); err != nil {
			return nil, err
		}
		opts.ClientID = sess.clientID
	}
	clean := opts.ClientID == ""
	o := opts.withDefaults()
	c := &Client{
		opts:    o,
		journal: sess,
		clean:   clean,
		log:     o.Logger,
		subs:    make(map[string]subscription),
		active:  make(map[string]uint64),
		wake:    make(chan struct{}, 1),
		up:      make(chan struct{}, 1),
		down:    make(chan struct{}, 1),
		own:     ownStatus{wake: make(chan struct{}, 1), limit: loglimit.New(logInterval)},
	}
	if c.log == nil {
		c.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	c.maxPayload.Store(DefaultMaxPayload)
	po, err := c.pahoOptions()
	if err != nil {
		return nil, err
	}
	c.pc = paho.NewClient(po)
	return c, nil
}

// pahoOptions are the paho client's options for c: its broker, identity,
// session, will and the handlers that hand everything to c.
func (c *Client) pahoOptions() (*paho.ClientOptions, error) {
	o := c.opts
	u, _ := o.brokerURL()
	password, _ := o.password()
	po := paho.NewClientOptions().
		AddBroker(u.String()).
		SetClientID(o.ClientID).
		SetUsername(o.Username).
		SetPassword(password).
		SetKeepAlive(o.KeepAlive). // a Duration: SetKeepAlive(30) would be 30 ns
		SetConnectTimeout(o.ConnectTimeout).
		SetWriteTimeout(opTimeout).
		SetCleanSession(c.clean).
		// Handlers acknowledge (see dispatch): the ingest only once the
		// readings of a message are committed.
		SetAutoAckDisabled(true).
		// Every message goes through dispatch, also those a resumed
		// session delivers between the CONNACK and the SUBSCRIBEs.
		SetDefaultPublishHandler(c.dispatch).
		SetAutoReconnect(true).
		SetConnectRetry(false). // Run retries with back-off under its context
		SetMaxReconnectInterval(o.ReconnectMax).
		// Order matters (rain counters, availability) and costs nothing,
		// since every handler only hands the message on; acknowledgements
		// are sent later, from other goroutines, which paho allows.
		SetOrderMatters(true).
		SetWill(o.AvailabilityTopic, "offline", 1, true).
		SetCustomOpenConnectionFn(c.open).
		SetOnConnectHandler(func(paho.Client) { c.conns.Add(1); signal(c.up) }).
		SetConnectionLostHandler(func(_ paho.Client, err error) {
			c.setErr(fmt.Errorf("connection lost: %w", err))
			signal(c.down)
		})
	if isTLS(u.Scheme) {
		cfg, err := o.tlsConfig(u)
		if err != nil {
			return nil, err
		}
		po.SetTLSConfig(cfg)
	}
	return po, nil
}

func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// Run connects and keeps the connection until ctx ends, then says offline
// and disconnects. A broker that is down is retried for as long as it
// takes; Run returns nil when ctx ends, an error only when called twice.
func (c *Client) Run(ctx context.Context) error {
	if !c.running.CompareAndSwap(false, true) {
		return errors.New("mqtt client: Run called twice")
	}
	defer c.shutdown()
	if c.journal != nil {
		if err := c.journal.refresh(); err != nil {
			c.log.Warn("mqtt: cannot read the session file again; a redelivery of the previous run's last messages may be recorded twice", "err", err)
		}
	}
	c.log.Info("mqtt: connecting", "mqtt", c.opts)
	if err := c.connect(ctx); err != nil {
		return nil
	}
	var session uint64 // the connection whose OnConnect was handled
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-c.up:
			session = c.conns.Load()
			c.onConnect(ctx, session)
		case <-c.down:
			c.log.Warn("mqtt: connection lost, reconnecting", "broker", c.opts.Broker, "err", c.Health())
		case <-c.wake:
			// Between paho's connect and its OnConnect, leave the
			// subscribing to the OnConnect that is on its way.
			if session == c.conns.Load() {
				c.syncSubscriptions(ctx, session)
			}
		case <-c.own.wake:
			c.sayOnlineAgain(ctx)
		}
	}
}

// connect makes the first connection, retrying with exponential back-off
// and jitter; later losses are paho's to repair (with its own back-off,
// capped at ReconnectMax).
func (c *Client) connect(ctx context.Context) error {
	delay := min(firstBackoff, c.opts.ReconnectMax)
	for attempt := 1; ; attempt++ {
		tok := c.pc.Connect()
		select {
		case <-tok.Done():
		case <-ctx.Done():
			return ctx.Err()
		}
		if tok.Error() == nil {
			return nil
		}
		c.setErr(tok.Error())
		wait := delay/2 + rand.N(delay/2+1)
		c.log.Warn("mqtt: cannot connect, retrying", "broker", c.opts.Broker, "attempt", attempt, "retry_in", wait.Round(time.Millisecond), "err", tok.Error())
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return ctx.Err()
		}
		delay = min(2*delay, c.opts.ReconnectMax)
	}
}

// onConnect runs after every connect: every filter is subscribed again (a
// clean session forgot them; a resumed one gets the retained messages
// again, which the ingest knows) and the availability set.
func (c *Client) onConnect(ctx context.Context, conn uint64) {
	c.setErr(nil)
	c.syncSubscriptions(ctx, conn)
	if ctx.Err() != nil {
		return // stopping: shutdown says offline
	}
	if err := c.Publish(ctx, c.opts.AvailabilityTopic, 0, true, []byte("online")); err != nil {
		c.log.Warn("mqtt: cannot publish availability", "topic", c.opts.AvailabilityTopic, "err", err)
	}
	n := c.sessions.Add(1)
	c.ready.Store(conn)
	c.log.Info("mqtt: connected", "broker", c.opts.Broker, "client_id", c.opts.ClientID, "clean_session", c.clean, "session", n)
}

// Publish sends payload and, for QoS 1 and 2, waits for the broker's
// acknowledgement or for ctx to end. It returns ErrNotConnected at once
// while the broker is unreachable. Never call it from a Handler.
//
// climated's own messages go out at QoS 0 and are all published again
// after every reconnect (see Sessions), which is what QoS 1 would buy: paho
// resends unacknowledged QoS 1 messages after a reconnect in a way that
// races with messages published at that moment (eclipse/paho.mqtt.golang#703:
// resume sets the DUP flag on a packet being written).
func (c *Client) Publish(ctx context.Context, topic string, qos byte, retained bool, payload []byte) error {
	if !c.Connected() {
		return ErrNotConnected
	}
	if err := wait(ctx, c.pc.Publish(topic, qos, retained, payload)); err != nil {
		return fmt.Errorf("publish %s: %w", topic, err)
	}
	return nil
}

// wait waits for a paho token, bounded by ctx and opTimeout.
func wait(ctx context.Context, tok paho.Token) error {
	t := time.NewTimer(opTimeout)
	defer t.Stop()
	select {
	case <-tok.Done():
		return tok.Error()
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return errors.New("timed out waiting for the broker")
	}
}

// Journal is the session file's journal of the QoS 1 messages taken in,
// shared with the ingest; nil without a session file.
func (c *Client) Journal() *Journal { return c.journal }

// ClientID is the id the broker knows the hub by: Options.ClientID, or
// the session file's; "" for a clean session.
func (c *Client) ClientID() string { return c.opts.ClientID }

// Prefix is the topic prefix of the hub's own topics (Options.Prefix).
func (c *Client) Prefix() string { return c.opts.Prefix }

// AvailabilityTopic is the retained topic that says whether the hub is
// online (Options.AvailabilityTopic).
func (c *Client) AvailabilityTopic() string { return c.opts.AvailabilityTopic }

// Connected reports whether the connection is up.
func (c *Client) Connected() bool { return c.pc.IsConnectionOpen() }

// Sessions counts the connections made so far; it grows by one at every
// (re)connect, which is when retained state must be published again.
func (c *Client) Sessions() uint64 { return c.sessions.Load() }

// Health is nil while connected, else an error that says since when the
// broker has been unreachable and why; a readiness check can use it.
func (c *Client) Health() error {
	if c.Connected() {
		return nil
	}
	c.errMu.Lock()
	defer c.errMu.Unlock()
	if c.lastErr == nil {
		return fmt.Errorf("mqtt broker %s: not connected", c.opts.Broker)
	}
	return fmt.Errorf("mqtt broker %s: not connected since %s: %w", c.opts.Broker, c.errTime.Format(time.RFC3339), c.lastErr)
}

func (c *Client) setErr(err error) {
	c.errMu.Lock()
	defer c.errMu.Unlock()
	if err == nil || c.lastErr == nil {
		c.errTime = time.Now()
	}
	c.lastErr = err
}

// Linger keeps the connection open at shutdown until done is called (at
// most lingerTimeout): the ingest commits what waits when it stops, and
// its acknowledgements must reach the broker before the DISCONNECT, or
// the broker delivers those messages again at the next start.
func (c *Client) Linger() (done func()) {
	c.lingerMu.Lock()
	defer c.lingerMu.Unlock()
	if c.lingerEnd {
		return func() {} // the disconnect is under way: nothing to wait for
	}
	c.lingering.Add(1)
	return sync.OnceFunc(c.lingering.Done)
}

// shutdown waits for the lingering parts, says offline (the will is only
// for unclean ends) and disconnects.
func (c *Client) shutdown() {
	c.lingerMu.Lock()
	c.lingerEnd = true
	c.lingerMu.Unlock()
	waited := make(chan struct{})
	go func() { c.lingering.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(lingerTimeout):
		c.log.Warn("mqtt: disconnecting before the ingest's last acknowledgements")
	}
	if c.Connected() {
		ctx, cancel := context.WithTimeout(context.Background(), goodbyeTimeout)
		if err := c.Publish(ctx, c.opts.AvailabilityTopic, 0, true, []byte("offline")); err != nil {
			c.log.Warn("mqtt: cannot publish offline", "err", err)
		}
		cancel()
	}
	c.pc.Disconnect(quiesce)
	c.log.Info("mqtt: disconnected", "broker", c.opts.Broker)
}
