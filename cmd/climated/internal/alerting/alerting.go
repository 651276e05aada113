package alerting

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/history/alerts"
	webhook "github.com/climated/climated/history/alerts/notify"
	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/mcp"
	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/mqtt/publish"
	"github.com/climated/climated/sensors"
)

// Bounds of the alerting's hand-off from the reading path.
const (
	// alertQueue is how many batches of events wait for the dispatcher;
	// beyond it a batch is dropped and counted (the engine has committed
	// its states and history already, so only the notifications are lost).
	alertQueue = 64
	// alertTick is how often the silence rules are judged.
	alertTick = time.Minute
	// alertLogEvery is how often each of the alerting's warnings may be
	// logged.
	alertLogEvery = time.Minute
	// alertPrime is how much of the recent past fills the rate rules'
	// windows at start-up: the storm rule looks back 3 hours.
	alertPrime = 3 * time.Hour
)

// Alerter runs the alert engine of a hub: readings reach it as the hub
// records them, and one goroutine (Run, a part of the hub) hands its
// events to the MCP clients, MQTT and the webhook without ever holding up
// ingest.
type Alerter struct {
	engine   *alerts.Engine
	db       *alerts.DB
	notifier *webhook.Notifier // nil without a webhook
	events   chan []alerts.Event
	dropped  atomic.Int64 // batches of events dropped (the queue was full)
	log      *slog.Logger
	version  string

	droppedLog, storeFailed atomic.Int64 // when each warning was last logged (Unix ns)

	// Set before Run starts: where events go.
	srv *mcp.Server
	mq  atomic.Pointer[publish.AlertPublisher] // the MQTT alert publisher; nil without (a reload replaces it)
}

// Deps are what an Alerter is opened with.
type Deps struct {
	Config config.AlertsConfig
	Hub    *hub.Hub // whose database holds the alerts, and whose readings they judge
	Zones  []string // the house's zones
	Log    *slog.Logger
	// Version is the hub's version, in what the alerts publish to MQTT.
	Version string
}

// Open opens the engine on the hub's database (its rules, states and
// history), with the configured house rules, and fills its windows from
// the history's recent past.
func Open(ctx context.Context, d Deps) (*Alerter, error) {
	cfg, h, zones, log := d.Config, d.Hub, d.Zones, d.Log
	db, err := alerts.OpenDB(ctx, h.Path(), nil)
	if err != nil {
		return nil, err
	}
	house := cfg.House
	if err := house.Validate(zones); err != nil {
		log.Warn("alerts: the configured outdoor zones are not (yet) zones of the house", "err", err)
	}
	engine, err := alerts.New(ctx, &alerts.Options{Zones: zones, House: &house, Store: db, Logger: log})
	if err != nil {
		db.Close()
		return nil, err
	}
	a := &Alerter{engine: engine, db: db, events: make(chan []alerts.Event, alertQueue), log: log, version: d.Version}
	if cfg.Webhook != nil {
		if a.notifier, err = webhook.New(*cfg.Webhook, &webhook.Options{Logger: log.With("component", "webhook")}); err != nil {
			db.Close()
			return nil, err
		}
	}
	for _, z := range h.Describe() {
		engine.Seen(z.Name, time.Unix(z.When, 0))
	}
	if ws, err := h.Windows(ctx, alertPrime); err == nil {
		engine.Prime(windowReadings(ws))
	} else {
		log.Warn("alerts: cannot read the recent past; rate rules start with empty windows", "err", err)
	}
	h.OnRecord(a.observe)
	h.OnSeriesReset(a.reset)
	return a, nil
}

// reset has the engine forget a series whose past readings are gone
// (hub.OnSeriesReset).
func (a *Alerter) reset(ctx context.Context, zone string, m sensors.Measurement) {
	if err := a.engine.Reset(ctx, zone, m); err != nil {
		a.warn(&a.storeFailed, "alerts: cannot store the alerts' states", "err", err)
	}
}

// observe has the engine judge a batch the hub recorded (hub.OnRecord)
// and queues its events for the dispatcher.
func (a *Alerter) observe(ctx context.Context, rs []sensors.Reading) {
	evs, err := a.engine.Observe(ctx, rs)
	if err != nil {
		a.warn(&a.storeFailed, "alerts: cannot store the alerts' states", "err", err)
	}
	a.hand(evs)
}

// hand queues events for the dispatcher, never blocking.
func (a *Alerter) hand(evs []alerts.Event) {
	if len(evs) == 0 {
		return
	}
	select {
	case a.events <- evs:
	default:
		a.dropped.Add(1)
		a.warn(&a.droppedLog, "alerts: notifications dropped, the dispatcher is behind", "events", len(evs), "batches_dropped", a.dropped.Load())
	}
}

// warn logs msg at most once per alertLogEvery for the kind last stands
// for, so that a database or a dispatcher in trouble costs a line a
// minute, not one per reading.
func (a *Alerter) warn(last *atomic.Int64, msg string, args ...any) {
	now := time.Now().UnixNano()
	if prev := last.Load(); now-prev < int64(alertLogEvery) || !last.CompareAndSwap(prev, now) {
		return
	}
	a.log.Warn(msg, args...)
}

// SendTo sends the events to the MCP server's clients. Call it before
// the dispatcher runs.
func (a *Alerter) SendTo(srv *mcp.Server) { a.srv = srv }

// PublishOn makes an alert publisher on client, which then gets the
// events, and returns it to run with the client; a nil client (the hub
// does not publish, or no longer after a reload) publishes none.
func (a *Alerter) PublishOn(client *mqtt.Client, opts publish.Options, log *slog.Logger) (*publish.AlertPublisher, error) {
	if client == nil {
		a.mq.Store(nil)
		return nil, nil
	}
	pub, err := publish.NewAlertPublisher(client, a.engine, &publish.AlertOptions{
		HomeAssistant: opts.HomeAssistant, DiscoveryPrefix: opts.DiscoveryPrefix,
		Version: a.version, Logger: log.With("component", "mqtt-alerts"),
	})
	if err != nil {
		return nil, err
	}
	a.mq.Store(pub)
	return pub, nil
}

// MCP is the alerts as the MCP server serves them: the engine's, with
// its rules, states and history.
func (a *Alerter) MCP() mcp.Alerts { return mcp.NewAlerts(a.engine, a.db) }

// Engine is the alert engine.
func (a *Alerter) Engine() *alerts.Engine { return a.engine }

// Close closes the engine's database, for a hub that stops before Run
// started (Run closes it otherwise).
func (a *Alerter) Close() error { return a.db.Close() }

// Run is the dispatcher: it ticks the silence rules and hands every event
// on until ctx ends, then closes the engine's database.
func (a *Alerter) Run(ctx context.Context) error {
	defer a.db.Close()
	if a.notifier != nil {
		done := make(chan struct{})
		go func() { defer close(done); a.notifier.Run(ctx) }()
		defer func() { <-done }()
	}
	tick := time.NewTicker(alertTick)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case evs := <-a.events:
			a.dispatch(ctx, evs)
		case <-tick.C:
			evs, err := a.engine.Tick(ctx)
			if err != nil {
				a.log.Warn("alerts: cannot store the alerts' states", "err", err)
			}
			a.dispatch(ctx, evs)
		}
	}
}

// dispatch tells the assistants, MQTT and the phone of evs.
func (a *Alerter) dispatch(ctx context.Context, evs []alerts.Event) {
	if len(evs) == 0 {
		return
	}
	for _, ev := range evs {
		a.log.Info("alert", "type", ev.Type, "rule", ev.Rule, "zone", ev.Zone, "text", ev.Text)
		if mq := a.mq.Load(); mq != nil {
			mq.Event(ev)
		}
	}
	if a.notifier != nil {
		a.notifier.Notify(evs...)
	}
	if a.srv != nil {
		a.srv.AlertEvent(ctx, evs)
	}
}

// windowReadings turns the history's recent windows into readings.
func windowReadings(ws []climate.Window) []sensors.Reading {
	var rs []sensors.Reading
	for _, w := range ws {
		for _, p := range w.Points {
			rs = append(rs, sensors.Reading{Zone: w.Zone, Measurement: w.Measurement, Value: p.V, Time: time.Unix(p.T, 0), Source: w.Source})
		}
	}
	return rs
}
