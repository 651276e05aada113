package demo

import (
	"io"
	"log/slog"
	"time"

	"github.com/climated/climated/sensors"
)

// DefaultInterval is the reading period of Run when Options.Interval is 0.
const DefaultInterval = time.Minute

// RainInterval is the period of the rain gauge: each Rain reading is the rain
// in mm that fell in the RainInterval ending at the reading's time.
const RainInterval = 5 * time.Minute

// The zones of the demo house, named like the modules of a Netatmo weather
// station.
const (
	zoneIndoor  = "Indoor"  // main station in the living room
	zoneBedroom = "Bedroom" // indoor module
	zoneBalcony = "Balcony" // outdoor module
	zoneRain    = "Rain"    // rain gauge
)

var zoneNames = []string{zoneIndoor, zoneBedroom, zoneBalcony, zoneRain}

// Options configure a House. The zero value, like a nil *Options, gives the
// defaults.
type Options struct {
	Seed     int64            // same seed, same house; 0 means 1
	Interval time.Duration    // reading period for Run; 0 means DefaultInterval
	Location *time.Location   // local time for the daily cycles; nil means time.Local
	Now      func() time.Time // clock; nil means time.Now
	Logger   *slog.Logger     // nil discards
	// Backfill makes Run first record the readings of [now-Backfill, now)
	// at Interval steps, so that a fresh hub has a history; 0 means none.
	Backfill time.Duration
}

// House is the simulated house. Its readings are a pure function of its seed,
// its location and the time, so a House has no state and is safe for
// concurrent use.
type House struct {
	seed     uint64
	interval time.Duration
	loc      *time.Location
	now      func() time.Time
	log      *slog.Logger
	backfill time.Duration
}

// House is a source of readings.
var _ sensors.Source = (*House)(nil)

// New returns the demo house that opts describe; nil opts means defaults.
func New(opts *Options) *House {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Interval <= 0 {
		o.Interval = DefaultInterval
	}
	if o.Location == nil {
		o.Location = time.Local
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &House{
		seed:     uint64(o.Seed),
		interval: o.Interval,
		loc:      o.Location,
		now:      o.Now,
		log:      o.Logger,
		backfill: max(o.Backfill, 0),
	}
}

// Name returns "demo".
func (h *House) Name() string { return "demo" }

// Zones returns the zones the house feeds: Indoor, Bedroom, Balcony and Rain.
func (h *House) Zones() []string { return append([]string(nil), zoneNames...) }

// At returns every reading the house produces at instant t: the measurements
// of each zone in the order of Zones, rounded as the catalogue shows them.
// The Rain zone has a Rain reading only when t is a multiple of RainInterval.
// The readings depend on the seed, the location and the instant t alone (not
// on t's location), so calling At again, in any order, gives the same values:
// a backfilled day, a restart and a test that steps through a day all see
// the same house.
func (h *House) At(t time.Time) []sensors.Reading {
	t = t.Round(0) // no monotonic clock reading: a reading's time is a wall time
	in := h.instant(t)
	outTemp := h.outdoorTemp(in)
	dew := h.dewPoint(in)
	living := h.livingRoom(in, dew)
	bed := h.bedroom(in, dew)
	pressure := h.seaLevelPressure(in)

	rs := make([]sensors.Reading, 0, 28)
	add := func(zone string, m sensors.Measurement, v float64) {
		rs = append(rs, sensors.Reading{Zone: zone, Measurement: m, Value: round(m, v), Time: t, Source: SourcePrefix + zone})
	}
	add(zoneIndoor, sensors.Temperature, living.temp)
	add(zoneIndoor, sensors.Humidity, living.humidity)
	add(zoneIndoor, sensors.CO2, living.co2)
	add(zoneIndoor, sensors.Noise, living.noise)
	add(zoneIndoor, sensors.Pressure, pressure)
	add(zoneIndoor, sensors.AbsolutePressure, pressure*stationFactor)
	add(zoneIndoor, sensors.WiFiStatus, h.wifi(t))
	a := h.livingAir(in)
	add(zoneIndoor, sensors.PM1, a.pm1)
	add(zoneIndoor, sensors.PM25, a.pm25)
	add(zoneIndoor, sensors.PM4, a.pm4)
	add(zoneIndoor, sensors.PM10, a.pm10)
	add(zoneIndoor, sensors.VOCIndex, a.voc)
	add(zoneIndoor, sensors.NOxIndex, a.nox)

	add(zoneBedroom, sensors.Temperature, bed.temp)
	add(zoneBedroom, sensors.Humidity, bed.humidity)
	add(zoneBedroom, sensors.CO2, bed.co2)
	h.health(zoneBedroom, t, add)

	add(zoneBalcony, sensors.Temperature, outTemp)
	add(zoneBalcony, sensors.Humidity, h.outdoorHumidity(in, outTemp))
	h.health(zoneBalcony, t, add)

	if onRainBoundary(t) {
		add(zoneRain, sensors.Rain, h.rain(t))
	}
	h.health(zoneRain, t, add)
	return rs
}

// health adds the battery and radio readings of the module in zone.
func (h *House) health(zone string, t time.Time, add func(string, sensors.Measurement, float64)) {
	mod := modules[zone]
	mV, pc := h.battery(mod, t)
	add(zone, sensors.BatteryVoltage, mV)
	add(zone, sensors.BatteryPercent, pc)
	add(zone, sensors.RFStatus, h.rf(mod, t))
}

// rainReading is the Rain reading at end, a multiple of RainInterval.
func (h *House) rainReading(end time.Time) sensors.Reading {
	return sensors.Reading{Zone: zoneRain, Measurement: sensors.Rain, Value: round(sensors.Rain, h.rain(end)), Time: end, Source: SourcePrefix + zoneRain}
}

func onRainBoundary(t time.Time) bool { return t.Truncate(RainInterval).Equal(t) }

// round rounds v to the decimals the catalogue shows m with, as a real
// station reports it.
func round(m sensors.Measurement, v float64) float64 { return m.Round(v, 0) }
