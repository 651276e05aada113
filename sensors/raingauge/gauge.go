package raingauge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"strings"
	"sync"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/host/v3"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/field"
)

// Defaults of the configuration.
const (
	DefaultZone     = "Rain"
	DefaultMMPerTip = 0.2794
	DefaultInterval = 5 * time.Minute
	DefaultDebounce = 200 * time.Millisecond
)

const (
	waitTimeout  = time.Second     // WaitForEdge's timeout: how soon Run notices its end
	flushTimeout = 5 * time.Second // for recording the last interval after the end
	retryMax     = time.Minute     // the longest wait before opening the pin again
	spinPause    = 100 * time.Millisecond
)

// Config is the rain gauge's part of climated's configuration file:
//
//	rain_gauge: {pin: GPIO17, zone: Rain, mm_per_tip: 0.2794, interval: 5m}
type Config struct {
	Pin      string        `yaml:"pin"`        // GPIO name, e.g. GPIO17
	Zone     string        `yaml:"zone"`       // default Rain
	MMPerTip float64       `yaml:"mm_per_tip"` // default 0.2794
	Interval time.Duration `yaml:"interval"`   // default 5m
	Debounce time.Duration `yaml:"debounce"`   // default 200ms
	Edge     string        `yaml:"edge"`       // falling (default: switch to ground) or rising
}

// WithDefaults fills in what the configuration leaves out.
func (c Config) WithDefaults() Config {
	if c.Zone == "" {
		c.Zone = DefaultZone
	}
	if c.MMPerTip == 0 {
		c.MMPerTip = DefaultMMPerTip
	}
	if c.Interval == 0 {
		c.Interval = DefaultInterval
	}
	if c.Debounce == 0 {
		c.Debounce = DefaultDebounce
	}
	if c.Edge == "" {
		c.Edge = "falling"
	}
	return c
}

// Validate checks the configuration (after WithDefaults) and names the
// field that is wrong.
func (c Config) Validate() error {
	c = c.WithDefaults()
	switch {
	case strings.TrimSpace(c.Pin) == "":
		return field.Errorf("pin", "pin: empty: name the GPIO of the reed switch, e.g. GPIO17")
	case math.IsNaN(c.MMPerTip) || c.MMPerTip <= 0 || c.MMPerTip > 10:
		return field.Errorf("mm_per_tip", "mm_per_tip: %g: want more than 0 and at most 10 mm", c.MMPerTip)
	case c.Interval < time.Minute || c.Interval > time.Hour:
		return field.Errorf("interval", "interval: %s: want 1m to 1h", c.Interval)
	case c.Debounce < time.Millisecond || c.Debounce > time.Second:
		return field.Errorf("debounce", "debounce: %s: want 1ms to 1s", c.Debounce)
	case c.Edge != "falling" && c.Edge != "rising":
		return field.Errorf("edge", "edge: %q: want falling (switch to ground) or rising (switch to 3.3 V)", c.Edge)
	}
	return nil
}

// PinOpener finds a GPIO pin by name; tests pass gpiotest pins.
type PinOpener func(name string) (gpio.PinIn, error)

// OpenPin initialises periph's host drivers and finds the pin.
func OpenPin(name string) (gpio.PinIn, error) {
	if _, err := host.Init(); err != nil {
		return nil, fmt.Errorf("gpio: %w", err)
	}
	p := gpioreg.ByName(name)
	if p == nil {
		return nil, fmt.Errorf("gpio: no pin %q (names are like GPIO17)", name)
	}
	return p, nil
}

// Options are the seams of New; nil means defaults.
type Options struct {
	Logger *slog.Logger // nil: discard
	Open   PinOpener    // nil: OpenPin
}

// Gauge is the rain gauge, a sensors.Source.
type Gauge struct {
	cfg  Config
	log  *slog.Logger
	open PinOpener
	name string

	mu      sync.Mutex
	pending int       // tips countingDone and not yet recorded
	lastTip time.Time // the latest countingDone tip, for the debounce
	carry   float64   // mm recorded short (or over) by rounding, for the next interval
}

var _ sensors.Source = (*Gauge)(nil)

// New validates cfg and returns its gauge.
func New(cfg Config, opts *Options) (*Gauge, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("rain gauge: %w", err)
	}
	g := &Gauge{cfg: cfg.WithDefaults()}
	if opts != nil {
		g.log, g.open = opts.Logger, opts.Open
	}
	if g.log == nil {
		g.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if g.open == nil {
		g.open = OpenPin
	}
	g.name = "gpio/" + g.cfg.Pin
	g.log = g.log.With("source", g.name, "zone", g.cfg.Zone)
	return g, nil
}

// Name implements sensors.Source.
func (g *Gauge) Name() string { return g.name }

// Zones is the gauge's zone.
func (g *Gauge) Zones() []string { return []string{g.cfg.Zone} }

// Run counts tips and records each interval's rain until ctx ends; then
// it records the unfinished interval and returns nil. It returns an error
// only when the sink has stopped.
func (g *Gauge) Run(ctx context.Context, sink sensors.Sink) error {
	pin, err := g.openPin(ctx, sink)
	if err != nil || pin == nil {
		return err
	}
	countCtx, stopCounting := context.WithCancel(context.Background())
	countingDone := make(chan struct{})
	go func() {
		defer close(countingDone)
		g.countTips(countCtx, pin)
	}()
	defer func() { stopCounting(); <-countingDone }()

	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		next := time.Now().Truncate(g.cfg.Interval).Add(g.cfg.Interval)
		timer.Reset(time.Until(next))
		select {
		case <-ctx.Done():
			end := time.Now()
			stopCounting()
			<-countingDone
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), flushTimeout)
			defer cancel()
			if err := g.record(fctx, sink, end, false); err != nil {
				return err
			}
			return nil
		case <-timer.C:
			if err := g.record(ctx, sink, next, true); err != nil {
				return err
			}
		}
	}
}

// openPin opens and configures the pin, retrying with back-off while ctx
// lasts; it returns nil, nil when ctx ends first.
func (g *Gauge) openPin(ctx context.Context, sink sensors.Sink) (gpio.PinIn, error) {
	pull, edge := gpio.PullUp, gpio.FallingEdge
	if g.cfg.Edge == "rising" {
		pull, edge = gpio.PullDown, gpio.RisingEdge
	}
	wait := time.Second
	for failures := 0; ; failures++ {
		pin, err := g.open(g.cfg.Pin)
		if err == nil {
			if err = pin.In(pull, edge); err != nil {
				err = fmt.Errorf("gpio %s: set up as input with edge detection: %w (is the service's user in group gpio?)", g.cfg.Pin, err)
			}
		}
		if err == nil {
			if failures > 0 {
				g.log.Info("rain gauge pin works again", "failures", failures)
			}
			g.log.Info("rain gauge counting", "pin", g.cfg.Pin, "edge", g.cfg.Edge, "mm_per_tip", g.cfg.MMPerTip, "interval", g.cfg.Interval)
			return pin, nil
		}
		if failures == 0 {
			g.log.Warn("rain gauge: cannot use its pin; retrying", "err", err)
		}
		sink.Report(sensors.Status{Source: g.name, Zones: g.Zones(), Err: err, ErrTime: time.Now()})
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, nil
		case <-t.C:
		}
		wait = min(2*wait, retryMax)
	}
}

// countTips counts the tips until ctx ends.
func (g *Gauge) countTips(ctx context.Context, pin gpio.PinIn) {
	for ctx.Err() == nil {
		start := time.Now()
		if !pin.WaitForEdge(waitTimeout) {
			// A pin that fails at once (a closed line) would spin.
			if time.Since(start) < waitTimeout/2 {
				time.Sleep(spinPause)
			}
			continue
		}
		now := time.Now()
		g.mu.Lock()
		if g.lastTip.IsZero() || now.Sub(g.lastTip) >= g.cfg.Debounce {
			g.pending++
			g.lastTip = now
		}
		g.mu.Unlock()
	}
}

// amount is the rain of n tips of mmPerTip, plus what earlier intervals
// were recorded short by, at the catalogue's resolution of Rain (three
// decimals: a 0.2794 mm tip reads 0.279), and what this one is recorded
// short by in turn. Carrying the rounding on keeps every reading at three
// decimals and every sum within 0.0005 mm of tips × mm_per_tip: three
// tips in three intervals read 0.279, 0.279, 0.280 (0.838 in all, as
// 3 × 0.2794 = 0.8382). An interval without tips records 0 and keeps the
// carry.
func amount(n int, mmPerTip, carry float64) (mm, rest float64) {
	if n == 0 {
		return 0, carry
	}
	exact := float64(n)*mmPerTip + carry
	mm = sensors.Rain.Round(exact, 0)
	return mm, exact - mm
}

// mostTips is how many tips one reading may hold: the catalogue bounds a
// Rain reading (500 mm), and tips kept while the hub refused the gauge's
// readings (its clock not yet right, through a wet few days) go in
// readings of at most that, an interval each, instead of one the hub
// refuses as invalid again and again while every later tip piles on.
func (g *Gauge) mostTips() int {
	info, _ := sensors.Lookup(sensors.Rain)
	return max(1, int((info.Max-g.cfg.MMPerTip)/g.cfg.MMPerTip))
}

// record records the rain countingDone so far as the interval ending at t. A
// sink that rejects it leaves the tips to the next interval, and so does
// one whose guard refused it (sensors.ErrNotAdmitted: the hub's clock not
// yet right), which logs so itself: the gauge is not at fault. Without
// tips, zero is recorded only at interval boundaries (boundary), not at
// the end.
func (g *Gauge) record(ctx context.Context, sink sensors.Sink, t time.Time, boundary bool) error {
	g.mu.Lock()
	n, carry := g.pending, g.carry
	n = min(n, g.mostTips())
	g.pending -= n
	g.mu.Unlock()
	if n == 0 && !boundary {
		return nil
	}
	mm, rest := amount(n, g.cfg.MMPerTip, carry)
	r := sensors.Reading{Zone: g.cfg.Zone, Measurement: sensors.Rain, Value: mm, Time: t, Source: g.name}
	err := sink.Record(ctx, sensors.Batch{Readings: []sensors.Reading{r}})
	if err == nil {
		g.mu.Lock()
		g.carry = rest
		g.mu.Unlock()
	}
	switch {
	case errors.Is(err, sensors.ErrStopped):
		return fmt.Errorf("rain gauge: %w", err)
	case err != nil:
		g.mu.Lock()
		g.pending += n
		g.mu.Unlock()
		if errors.Is(err, sensors.ErrNotAdmitted) {
			sink.Report(sensors.Status{Source: g.name, Zones: g.Zones(), LastSeen: t})
			return nil
		}
		g.log.Warn("rain gauge: sink did not take the interval's rain; keeping it for the next", "tips", n, "mm", mm, "err", err)
		sink.Report(sensors.Status{Source: g.name, Zones: g.Zones(), Err: err, ErrTime: t})
		return nil
	}
	if n > 0 {
		g.log.Debug("rain recorded", "tips", n, "mm", mm, "time", t)
	}
	sink.Report(sensors.Status{Source: g.name, Zones: g.Zones(), LastSeen: t})
	return nil
}
