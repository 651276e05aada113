package alerts

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/climated/climated/sensors"
)

// Store persists rules, their states and the alert history; *DB keeps them
// in SQLite. The engine calls it with its lock held, on rule changes and
// on the batches that change a state, never on a reading that changes
// nothing.
type Store interface {
	Rules(ctx context.Context) ([]Rule, error)           // the user rules
	States(ctx context.Context) ([]State, error)         // every persisted state
	AddRule(ctx context.Context, r Rule) (string, error) // keeps r, returns its new ID
	DeleteRule(ctx context.Context, id string) error     // deletes the rule and its states
	// Commit keeps the states and appends the events in one transaction.
	Commit(ctx context.Context, states []State, events []Event) error
}

// Options configure an Engine; nil means all defaults.
type Options struct {
	Zones  []string         // the zones known from the configuration; zones seen in readings are added
	House  *HouseConfig     // nil means DefaultHouse
	Store  Store            // nil keeps everything in memory
	Now    func() time.Time // clock for Tick, the zones' start and the event rate; nil means time.Now
	Logger *slog.Logger     // nil discards
	// MaxEventsPerSecond and Burst bound the events the engine emits
	// (DefaultMaxEventsPerSecond, DefaultBurst); beyond them events are
	// counted in Stats.Suppressed and logged, and states still change.
	MaxEventsPerSecond float64
	Burst              int
	// MaxAge is how old a reading may be, by the clock, and still be
	// judged (DefaultMaxAge): older ones (a source's backfill, a device's
	// buffered readings) only fill the windows, as Prime does, so a hub
	// that starts does not announce yesterday's alerts.
	MaxAge time.Duration
}

// DefaultMaxAge is the default of Options.MaxAge.
const DefaultMaxAge = 15 * time.Minute

// Engine evaluates rules on readings. It has no goroutine: the hub calls
// Observe with every batch of readings, in the order they arrive, and Tick
// periodically (every minute) for the silence rules. It is safe for
// concurrent use.
type Engine struct {
	mu     sync.Mutex
	house  HouseConfig
	store  Store
	now    func() time.Time
	log    *slog.Logger
	limit  limiter
	rules  []Rule // house rules, then user rules in the order they were created
	index  index
	zones  map[string]*zone
	states map[stateKey]*State
	maxAge time.Duration
	nextID int // the next user rule's number when there is no Store
	stats  Stats
}

// Stats counts what the engine did, for metrics.
type Stats struct {
	Readings   int64 // readings evaluated
	Old        int64 // readings older than MaxAge: windows only
	Events     int64 // events emitted
	Suppressed int64 // events over the rate bound, not emitted
	CommitErrs int64 // failed Store commits
}

// zone is what the engine knows of one zone.
type zone struct {
	outdoor  bool // by the house configuration
	lastSeen time.Time
	latest   map[sensors.Measurement]sample // for Condensation
	series   map[sensors.Measurement]*series
}

type sample struct {
	t   time.Time
	v   float64
	sim bool // of a simulated source (sensors.Simulated): the demo house's
}

// ErrNoRule is returned (wrapped) when a rule ID is unknown.
var ErrNoRule = errors.New("no such rule")

// New builds an engine from the house configuration and the store's
// rules and states.
func New(ctx context.Context, opts *Options) (*Engine, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	e := &Engine{store: o.Store, now: o.Now, log: o.Logger, maxAge: o.MaxAge, zones: map[string]*zone{}, states: map[stateKey]*State{}, nextID: 1}
	if e.maxAge <= 0 {
		e.maxAge = DefaultMaxAge
	}
	e.house = DefaultHouse()
	if o.House != nil {
		e.house = *o.House
	}
	if e.now == nil {
		e.now = time.Now
	}
	if e.log == nil {
		e.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	e.limit = newLimiter(o.MaxEventsPerSecond, o.Burst)
	house, err := e.house.Rules()
	if err != nil {
		return nil, err
	}
	e.rules = house
	for _, z := range o.Zones {
		e.zone(z).lastSeen = e.now()
	}
	if err := e.load(ctx); err != nil {
		return nil, err
	}
	for _, z := range e.zones {
		if z.lastSeen.IsZero() {
			z.lastSeen = e.now() // silence counts from the start until Seen says otherwise
		}
	}
	e.reindex()
	return e, nil
}

// load reads the user rules and the states of rules that still exist.
func (e *Engine) load(ctx context.Context) error {
	if e.store == nil {
		return nil
	}
	user, err := e.store.Rules(ctx)
	if err != nil {
		return fmt.Errorf("load alert rules: %w", err)
	}
	e.rules = append(e.rules, user...)
	states, err := e.store.States(ctx)
	if err != nil {
		return fmt.Errorf("load alert states: %w", err)
	}
	for _, s := range states {
		if e.rule(s.Rule) == nil {
			continue
		}
		e.states[stateKey{s.Rule, s.Zone}] = &s
		e.zone(s.Zone)
	}
	return nil
}

// zone returns the zone named z, adding it when it is new.
func (e *Engine) zone(name string) *zone {
	z := e.zones[name]
	if z == nil {
		z = &zone{outdoor: e.house.IsOutdoor(name), latest: map[sensors.Measurement]sample{}, series: map[sensors.Measurement]*series{}}
		e.zones[name] = z
	}
	return z
}

func (e *Engine) rule(id string) *Rule {
	for i := range e.rules {
		if e.rules[i].ID == id {
			return &e.rules[i]
		}
	}
	return nil
}

// Zones lists the zones the engine knows: configured and seen.
func (e *Engine) Zones() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Sorted(maps.Keys(e.zones))
}

// Seen tells the engine when zone last sent a reading, so that a restart
// does not restart the silence rules' clocks (the hub passes the latest
// reading time of each zone from the history).
func (e *Engine) Seen(zone string, t time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if z := e.zone(zone); t.After(z.lastSeen) || z.lastSeen.After(e.now()) {
		z.lastSeen = t
	}
}

// Rules returns the house rules that are on, then the user rules.
func (e *Engine) Rules() []Rule {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.rules)
}

// Active returns the alerts that are on, the earliest first.
func (e *Engine) Active() []State {
	e.mu.Lock()
	defer e.mu.Unlock()
	all := make([]State, 0, len(e.states))
	for _, s := range e.states {
		all = append(all, *s)
	}
	return activeOf(all)
}

// States returns the state of every rule in every zone it has seen.
func (e *Engine) States() []State {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]State, 0, len(e.states))
	for _, s := range e.states {
		out = append(out, *s)
	}
	return out
}

// Stats returns the engine's counters.
func (e *Engine) Stats() Stats {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stats
}
