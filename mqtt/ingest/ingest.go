package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/internal/loglimit"
	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/mqtt/decode"
	"github.com/climated/climated/sensors"
)

// Defaults for Options fields left zero.
const (
	DefaultQueueSize    = 1024
	DefaultMaxPayload   = mqtt.DefaultMaxPayload
	DefaultMaxAutoZones = 64
	// DefaultLogInterval: a kind of bad input from one topic gets a log
	// line at most this often (the counters in Stats see every event).
	DefaultLogInterval = time.Minute
	// maxBatch bounds the readings of one Record call.
	maxBatch = 1024
	// maxDevices bounds the devices remembered over all mappings, against
	// a wildcard that catches every sensor in the neighbourhood.
	maxDevices = 4096
	// excerptBytes is how much of a bad payload a log line shows.
	excerptBytes = 120
)

// Options tune an Ingest; nil means defaults.
type Options struct {
	// KnownZone reports zones the history has already: a device placed
	// in one by auto_zone is not a new zone, and is logged at DEBUG only
	// (every restart would log every auto zone again). Nil: none known.
	KnownZone func(zone string) bool `yaml:"-"`
	// Recorded returns what the history holds of zone's m after from
	// (Unix seconds): another hub's amount logs are compared with it, so
	// that rain this hub recorded before a restart is not recorded twice.
	// Nil: nothing recorded before this run.
	Recorded func(zone string, m sensors.Measurement, from int64) []climate.Point `yaml:"-"`
	// Marked says which marks (sensors.Batch's Mark) the history holds: the
	// ingest marks each batch of QoS 1 messages it records, and asks
	// about the batches the previous run had not seen committed when the
	// broker delivers their messages again, so that one recorded before a
	// crash is not recorded twice. Nil: such messages are recorded again
	// (see durable.go).
	Marked func(ctx context.Context, names []string) (map[string]bool, error) `yaml:"-"`
	// CommitWait is how long the readings of QoS 1 messages may wait in
	// memory, with the messages' acknowledgements, before the ingest has
	// the history commit them (sooner once ackBatch messages wait): the
	// history's commit interval, so that the ingest does not commit more
	// often than the other sources. Zero means ackDelay (200 ms).
	CommitWait time.Duration `yaml:"-"`
	// QueueSize is how many messages wait between the MQTT client and the
	// sink; beyond it messages are dropped and counted (QueueFull).
	QueueSize int `yaml:"queue_size"`
	// MaxPayload is the largest payload read, in bytes.
	MaxPayload int `yaml:"max_payload"`
	// MaxAutoZones bounds the zones devices create by themselves.
	MaxAutoZones int `yaml:"max_auto_zones"`
	// LogInterval is the shortest interval between two log lines about
	// bad input of the same kind from the same device (or topic, when the
	// payload names no device).
	LogInterval time.Duration `yaml:"log_interval"`
	// Altitude of the house in metres, from which the sea-level Pressure
	// is derived for devices that report only the station's pressure, as
	// for the hub's own sensors (the top-level altitude: cmd sets it).
	Altitude float64 `yaml:"-"`

	Now    func() time.Time `yaml:"-"` // clock; nil means time.Now
	Logger *slog.Logger     `yaml:"-"` // nil discards
}

// Ingest is a sensors.Source: it subscribes the mappings' topics on a
// Client and records what the devices send. Messages travel from the MQTT
// client to Run through a bounded queue, so a slow sink never blocks the
// client; when the queue is full messages are dropped and counted. QoS 1
// messages are acknowledged once their readings are committed (see
// durable.go).
type Ingest struct {
	client   *mqtt.Client
	journal  *mqtt.Journal // the client's journal; nil without one
	mappings []Mapping
	decoders []decode.Decoder
	opts     Options
	log      *slog.Logger
	limit    *loglimit.Limiter
	queue    chan inbound
	stats    counters
	running  atomic.Bool
	stopped  atomic.Bool // Run has ended: leave messages unacknowledged

	// Run's own state.
	devices   map[deviceKey]*device
	autoZones int
	durable   *durable
	placer    placer  // what is remembered of devices beyond their zone
	waiting   pending // battery and signal values of devices not placed yet

	zonesMu sync.RWMutex
	zones   map[string]bool
}

var _ sensors.Source = (*Ingest)(nil)

type inbound struct {
	mapping int
	msg     mqtt.Message
	at      time.Time
}

// New checks the mappings and registers their filters on c. They
// are registered before c connects so that a resumed session's queued
// messages, which the broker sends right after the CONNACK, find their
// handler; they wait in the queue for Run.
func New(c *mqtt.Client, mappings []Mapping, opts *Options) (*Ingest, error) {
	if err := ValidateMappings(mappings); err != nil {
		return nil, err
	}
	in := &Ingest{client: c, mappings: append([]Mapping(nil), mappings...)}
	if opts != nil {
		in.opts = *opts
	}
	o := &in.opts
	if o.QueueSize <= 0 {
		o.QueueSize = DefaultQueueSize
	}
	if o.MaxPayload <= 0 {
		o.MaxPayload = DefaultMaxPayload
	}
	if o.MaxAutoZones <= 0 {
		o.MaxAutoZones = DefaultMaxAutoZones
	}
	if o.LogInterval <= 0 {
		o.LogInterval = DefaultLogInterval
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	in.log = o.Logger
	if in.log == nil {
		in.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	for _, m := range in.mappings {
		d, _ := decode.New(m.Format, m.Fields) // checked by ValidateMappings
		in.decoders = append(in.decoders, d)
	}
	in.limit = loglimit.New(o.LogInterval)
	in.queue = make(chan inbound, o.QueueSize)
	in.devices = make(map[deviceKey]*device)
	in.zones = make(map[string]bool)
	if c != nil {
		in.journal = c.Journal()
		c.AllowPayload(o.MaxPayload)
		for i := range in.mappings {
			m := &in.mappings[i]
			if err := c.SubscribeManualAck(m.Topic, m.qos(), in.handler(i)); err != nil {
				for _, prev := range in.mappings[:i] {
					c.Unsubscribe(prev.Topic)
				}
				return nil, fmt.Errorf("mqtt ingest: %w", err)
			}
		}
	}
	return in, nil
}

// Name is the source's name in logs and statuses.
func (in *Ingest) Name() string { return "mqtt" }

// Stats returns the counters so far.
func (in *Ingest) Stats() Stats { return in.stats.snapshot() }

// Zones lists the zones the ingest has fed so far, sorted.
func (in *Ingest) Zones() []string {
	in.zonesMu.RLock()
	defer in.zonesMu.RUnlock()
	zs := make([]string, 0, len(in.zones))
	for z := range in.zones {
		zs = append(zs, z)
	}
	sort.Strings(zs)
	return zs
}

// Feeds reports whether zone gets readings from MQTT devices; a publisher
// skips such zones so that hubs do not echo each other's devices.
func (in *Ingest) Feeds(zone string) bool {
	in.zonesMu.RLock()
	defer in.zonesMu.RUnlock()
	return in.zones[zone]
}

// Run records readings into sink until ctx ends. It returns nil then, and
// an error only when the sink stops. At the end it commits and
// acknowledges what waits; the subscriptions stay (a persistent session
// keeps queueing for the next start) and messages that arrive after are
// left unacknowledged for the broker to deliver again.
func (in *Ingest) Run(ctx context.Context, sink sensors.Sink) error {
	if !in.running.CompareAndSwap(false, true) {
		return errors.New("mqtt ingest: Run called twice")
	}
	if in.client != nil {
		defer in.client.Linger()()
	}
	in.durable = newDurable(sink, in.opts.CommitWait)
	if in.durable.flush == nil {
		in.log.Info("mqtt: the sink cannot flush: messages are acknowledged once queued, a crash can lose the last second")
	}
	defer in.stop(ctx, sink)
	defer in.stopped.Store(true)
	for {
		select {
		case <-ctx.Done():
			return nil
		case first := <-in.queue:
			if err := in.drain(ctx, sink, first); err != nil {
				return err
			}
		case <-in.durable.timer.C:
			if err := in.commit(ctx, sink); err != nil {
				return err
			}
		}
	}
}

// handler is mapping i's message handler. It runs on the MQTT client's
// goroutine, so it only checks the size and queues, never waits. What it
// drops it acknowledges at once: an unacknowledged message would hold a
// place of the broker's in-flight window until the next connection.
func (in *Ingest) handler(i int) mqtt.Handler {
	return func(m mqtt.Message) {
		if in.route(m.Topic) != i || in.stopped.Load() {
			// An earlier mapping whose filter also matches takes it; or
			// Run has ended, and the broker delivers it at the next start.
			return
		}
		in.stats.received.Add(1)
		now := in.opts.Now()
		if size := max(m.Oversized, len(m.Payload)); size > in.opts.MaxPayload {
			in.stats.oversized.Add(1)
			in.warn("oversized payload dropped", m.Topic, m.Payload,
				fmt.Errorf("%d bytes, more than max_payload %d", size, in.opts.MaxPayload), now)
			m.Ack()
			return
		}
		select {
		case in.queue <- inbound{mapping: i, msg: m, at: now}:
		default:
			in.stats.queueFull.Add(1)
			in.warn("queue full, message dropped", m.Topic, m.Payload,
				fmt.Errorf("%d messages wait: the sink is too slow", in.opts.QueueSize), now)
			m.Ack()
		}
	}
}

// route is the first mapping whose filter matches topic.
func (in *Ingest) route(topic string) int {
	for i := range in.mappings {
		if mqtt.Matches(in.mappings[i].Topic, topic) {
			return i
		}
	}
	return -1
}

// drain processes first and whatever else waits, up to a batch, hands
// the readings on (recorded now, or held until the acknowledgements'
// commit) and reports the devices' status.
func (in *Ingest) drain(ctx context.Context, sink sensors.Sink, first inbound) error {
	var w intake
	b := &w.batch
	in.accept(first, &w)
	for n := 1; n < maxBatch && len(b.readings) < maxBatch; n++ {
		select {
		case m := <-in.queue:
			in.accept(m, &w)
			continue
		default:
		}
		break
	}
	if err := in.settle(ctx, sink, &w); err != nil {
		return err
	}
	for _, d := range b.touched {
		d.touched = false
		sink.Report(d.status)
	}
	return nil
}

// warn logs bad input, rate-limited per kind and topic.
func (in *Ingest) warn(kind, topic string, payload []byte, err error, now time.Time) {
	in.note(slog.LevelWarn, kind, topic, payload, err, now)
}

// note logs what happened to a message at level, rate-limited per kind and
// topic, with an excerpt of the payload.
func (in *Ingest) note(level slog.Level, kind, topic string, payload []byte, err error, now time.Time) {
	if !in.log.Enabled(context.Background(), level) {
		return
	}
	ok, suppressed := in.limit.Allow(kind+"\x00"+topic, now)
	if !ok {
		return
	}
	payload = payload[:min(len(payload), 4*excerptBytes)] // Excerpt copies what it is given
	in.log.Log(context.Background(), level, "mqtt: "+kind, "topic", topic, "payload", decode.Excerpt(payload, excerptBytes), "err", err, "suppressed", suppressed)
}

func (in *Ingest) addZone(z string) bool {
	in.zonesMu.Lock()
	defer in.zonesMu.Unlock()
	if in.zones[z] {
		return false
	}
	in.zones[z] = true
	return true
}
