package hw

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/climated/climated/sensors"
)

// Tunables of the polling.
const (
	DefaultAttemptTimeout = 15 * time.Second // one open or one reading
	DefaultLogEvery       = 15 * time.Minute // between repeated failure logs of one sensor
	retryMin              = time.Second      // first retry after a failure, doubling up to the interval
	notReadyRetry         = time.Second      // asking again a chip with no new measurement
	reinitAfter           = 3                // consecutive failures before a chip is opened anew
)

// Options are the seams and tunables of New; nil means defaults.
type Options struct {
	Logger         *slog.Logger  // nil: discard
	Open           Opener        // nil: OpenBus
	W1Dir          string        // DS18B20s' directory, default /sys/bus/w1/devices
	Wireless       string        // default /proc/net/wireless
	AttemptTimeout time.Duration // default DefaultAttemptTimeout
	LogEvery       time.Duration // default DefaultLogEvery
}

// Source polls the configured chips and the hub's Wi-Fi signal. It is a
// sensors.Source: every sensor has its own goroutine and interval, so a
// slow or failing chip never delays the others.
type Source struct {
	specs   []*spec
	log     *slog.Logger
	open    Opener
	timeout time.Duration
	every   time.Duration
	stale   int
}

var _ sensors.Source = (*Source)(nil)

// spec is one sensor, configured and resolved.
type spec struct {
	name     string // the readings' and the status's Source, e.g. "i2c1/0x76 bme280"
	chip     *chipInfo
	bus      string
	addr     uint16 // I²C address; a DS2482 bridge's for a DS18B20 behind one
	device   string // a DS18B20's 1-wire ID
	zone     string
	interval time.Duration
	offsets  Offsets
	altitude float64
	provides map[sensors.Measurement]bool
	optional bool // stops quietly when absent (Wi-Fi without a wireless interface)
	openDev  func(ctx context.Context, g *guard) (device, error)
	offBus   bool     // no I²C bus: DS18B20 on the kernel's 1-wire bus, Wi-Fi
	air      *zoneAir // where its temperature and humidity are noted for other chips of its zone
}

// New validates cfg and returns the Source of its sensors.
func New(cfg Config, opts *Options) (*Source, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.WithDefaults()
	o := opts.withDefaults()
	provides, _ := assignProviders(cfg.Sensors) // checked by Validate
	s := &Source{log: o.Logger, open: o.Open, timeout: o.AttemptTimeout, every: o.LogEvery, stale: cfg.StaleAfter}
	air := &zoneAir{}
	for i, sc := range cfg.Sensors {
		chip := lookupChip(sc.Chip)
		if len(provides[i]) == 0 {
			o.Logger.Warn("sensor not read: another chip in its zone provides all it measures; list provides to choose",
				"sensor", fmt.Sprintf("sensors[%d]", i), "chip", chip.name, "zone", sc.Zone)
			continue
		}
		p := &spec{
			chip: chip, bus: sc.Bus, addr: sc.Address, zone: sc.Zone, interval: sc.Interval,
			offsets: sc.Offsets, altitude: cfg.Altitude, provides: provides[i], air: air,
		}
		p.setOpen(sc, o.W1Dir, cfg.Altitude)
		s.specs = append(s.specs, p)
	}
	if !cfg.WiFi.Disabled {
		w := &wifi{path: o.Wireless, iface: cfg.WiFi.Interface}
		s.specs = append(s.specs, &spec{
			name: "wifi", chip: wifiChip, bus: cfg.WiFi.Interface, zone: cfg.WiFi.Zone,
			interval: cfg.WiFi.Interval, provides: map[sensors.Measurement]bool{sensors.WiFiStatus: true},
			optional: cfg.WiFi.Interface == "", offBus: true,
			openDev: func(context.Context, *guard) (device, error) { return w, nil },
		})
	}
	return s, nil
}

// withDefaults is o, or the zero Options, with every unset field set.
func (o *Options) withDefaults() Options {
	var d Options
	if o != nil {
		d = *o
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if d.Open == nil {
		d.Open = OpenBus
	}
	if d.W1Dir == "" {
		d.W1Dir = DefaultW1Dir
	}
	if d.Wireless == "" {
		d.Wireless = DefaultWireless
	}
	if d.AttemptTimeout == 0 {
		d.AttemptTimeout = DefaultAttemptTimeout
	}
	if d.LogEvery == 0 {
		d.LogEvery = DefaultLogEvery
	}
	return d
}

// setOpen names p after where its chip sits (the kernel's 1-wire bus, a
// DS2482 bridge on I²C, or I²C itself) and sets how it is opened.
func (p *spec) setOpen(sc SensorConfig, w1Dir string, altitude float64) {
	chip := p.chip
	switch {
	case chip.name == chipDS18B20 && sc.Bridge == 0:
		p.name, p.device = "w1/"+sc.Device, sc.Device
		p.offBus = true
		dir := w1Dir + "/" + sc.Device
		p.openDev = func(context.Context, *guard) (device, error) { return w1Therm{dir: dir}, nil }
	case chip.name == chipDS18B20:
		p.addr, p.device = sc.Bridge, sc.Device
		p.name = fmt.Sprintf("i2c%s/0x%02x/%s", sc.Bus, sc.Bridge, sc.Device)
		if sc.Channel != 0 {
			p.name = fmt.Sprintf("i2c%s/0x%02x/ch%d/%s", sc.Bus, sc.Bridge, sc.Channel, sc.Device)
		}
		rom, _ := romOf(sc.Device) // checked by Validate
		ch := sc.Channel
		p.openDev = func(_ context.Context, g *guard) (device, error) {
			return openDS18B20(g.bus.bridge(p.addr), g, ch, rom)
		}
	default:
		p.name = fmt.Sprintf("i2c%s/0x%02x %s", sc.Bus, sc.Address, chip.name)
		// The CO2 of a CCS811 or an SGP30 is an estimate from volatile
		// organic compounds or hydrogen, and its readings' Source says so;
		// in a zone with an NDIR chip (scd4x, scd30) the NDIR chip provides
		// CO2 (assignProviders).
		if chip.estimated {
			p.name += " (estimated CO2)"
		}
		air, zone := p.air, sc.Zone
		so := startOpts{altitude: altitude, air: func() (float64, float64, bool) { return air.get(zone) }}
		p.openDev = func(ctx context.Context, g *guard) (device, error) {
			o := so
			o.ctx, o.shared = ctx, g.bus
			return chip.open(g, p.addr, o)
		}
	}
}

// Name implements sensors.Source.
func (s *Source) Name() string { return "hw" }

// Zones lists the zones the source feeds, in configuration order.
func (s *Source) Zones() []string {
	var zs []string
	seen := make(map[string]bool)
	for _, p := range s.specs {
		if !seen[p.zone] {
			seen[p.zone] = true
			zs = append(zs, p.zone)
		}
	}
	return zs
}

// Run polls every sensor on its own interval until ctx ends, then closes
// the buses and returns nil. It returns an error only when the sink has
// stopped (sensors.ErrStopped).
func (s *Source) Run(ctx context.Context, sink sensors.Sink) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	pool := newBusPool(s.open)
	var wg sync.WaitGroup
	for _, p := range s.specs {
		if p.chip.note != "" {
			s.log.Info("sensor note", "sensor", p.name, "note", p.chip.note)
		}
		pl := s.poller(p, pool)
		wg.Go(func() {
			if err := pl.run(ctx, sink); err != nil {
				cancel(err)
			}
			pl.stop()
		})
	}
	wg.Wait()
	if err := pool.close(); err != nil {
		s.log.Warn("closing buses", "err", err)
	}
	if err := context.Cause(ctx); errors.Is(err, sensors.ErrStopped) {
		return fmt.Errorf("hw: %w", err)
	}
	return nil
}

func (s *Source) poller(p *spec, pool *busPool) *poller {
	log := s.log.With("sensor", p.name, "chip", p.chip.name, "zone", p.zone)
	if !p.offBus {
		log = log.With("bus", p.bus, "address", fmt.Sprintf("0x%02x", p.addr))
	}
	if p.device != "" {
		log = log.With("device", p.device)
	}
	return &poller{spec: p, pool: pool, log: log, timeout: s.timeout, logEvery: s.every, staleAfter: s.stale}
}
