package hw

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/sgp30"
)

// The SGP30's algorithm needs a measurement every second, whatever the
// interval at which climated records it. So an opened SGP30 measures in a
// goroutine of its own, on the shared bus a transaction at a time (its
// 12 ms wait holds nothing), and the poller takes the latest measurement
// at its own interval. The first 15 s after init_air_quality are
// reported by the chip as 400 ppm: the driver drops them, and the poller
// asks no sooner than sgp30WarmUp after the start: the first reading comes
// 15.5 s after it. When the zone has a temperature and a humidity from the
// chips that provide them, at most airMaxAge old, the chip gets the air's
// absolute humidity for its compensation whenever it changes by ahChange
// or more. Its baseline is not saved: after each start the chip needs
// about 12 hours to settle it.
const (
	sgp30WarmUp  = sgp30.WarmUp + 500*time.Millisecond // half a second past the first valid measurement
	sgp30Stale   = 3 * time.Second                     // a latest measurement older than this is no longer current
	sgp30MinECO2 = 400
	sgp30MaxECO2 = 60000
	ahChange     = 0.1 // g/m³: smaller changes of the absolute humidity are not sent
)

type sgp30Dev struct {
	d      *sgp30.Dev
	air    func() (t, rh float64, ok bool)
	cancel context.CancelFunc
	done   chan struct{}

	mu     sync.Mutex
	latest sgp30.Air
	at     time.Time // when latest was measured; zero during the warm-up
	err    error     // the latest measurement's fault; nil once one succeeds
	ah     float64   // the absolute humidity last sent, g/m³; 0: none yet
}

var _ closer = (*sgp30Dev)(nil)

// openSGP30 opens the chip on the shared bus rather than the attempt's
// guard, since its goroutine goes on measuring after the attempt.
func openSGP30(_ i2c.Bus, addr uint16, o startOpts) (device, error) {
	d, err := sgp30.NewI2C(o.shared, addr, nil)
	var wrong *sgp30.WrongChipError
	if errors.As(err, &wrong) {
		return nil, &WrongChipError{Reg: "0x202F (product type)", Got: wrong.FeatureSet >> 12, Want: []uint16{0}}
	}
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(o.ctx)
	s := &sgp30Dev{d: d, air: o.air, cancel: cancel, done: make(chan struct{})}
	go s.run(ctx)
	return s, nil
}

// run measures every second until ctx ends.
func (s *sgp30Dev) run(ctx context.Context) {
	defer close(s.done)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if err := s.compensate(); err != nil {
			s.record(sgp30.Air{}, err)
			continue
		}
		var a sgp30.Air
		s.record(a, s.d.Sense(&a))
	}
}

func (s *sgp30Dev) record(a sgp30.Air, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case errors.Is(err, sgp30.ErrWarmingUp):
	case err != nil:
		s.err = err
	default:
		s.latest, s.at, s.err = a, time.Now(), nil
	}
}

// compensate sends the zone's absolute humidity when it is known and has
// changed since it was last sent.
func (s *sgp30Dev) compensate() error {
	if s.air == nil {
		return nil
	}
	t, rh, ok := s.air()
	if !ok {
		return nil
	}
	ah := sgp30.AbsoluteHumidity(physic.ZeroCelsius+physic.Temperature(t*float64(physic.Celsius)), physic.RelativeHumidity(rh*float64(physic.PercentRH)))
	if math.Abs(ah-s.ah) < ahChange {
		return nil
	}
	if err := s.d.SetHumidity(ah); err != nil {
		return err
	}
	s.ah = ah
	return nil
}

// sense returns the latest measurement, the latest fault, or errNotReady
// during the warm-up.
func (s *sgp30Dev) sense() ([]value, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.err != nil:
		return nil, s.err
	case s.at.IsZero():
		return nil, errNotReady
	case time.Since(s.at) > sgp30Stale:
		return nil, fmt.Errorf("%w: the latest measurement is %s old", ErrTimeout, time.Since(s.at).Round(time.Second))
	case s.latest.CO2 < sgp30MinECO2 || s.latest.CO2 > sgp30MaxECO2:
		return nil, &RangeError{Measurement: sensors.CO2, Value: float64(s.latest.CO2), Min: sgp30MinECO2, Max: sgp30MaxECO2}
	}
	return []value{{sensors.CO2, float64(s.latest.CO2)}}, nil
}

// close stops the measuring and waits for it.
func (s *sgp30Dev) close() {
	s.cancel()
	<-s.done
}

// zoneAir is the latest temperature and humidity of each zone from the
// chips that provide them, for the SGP30's humidity compensation.
type zoneAir struct {
	mu sync.Mutex
	m  map[string]*airSample
}

type airSample struct {
	t, rh     float64
	tAt, rhAt time.Time
}

// airMaxAge is how old a temperature or humidity may be to compensate with.
const airMaxAge = 10 * time.Minute

func (z *zoneAir) note(rs []sensors.Reading) {
	z.mu.Lock()
	defer z.mu.Unlock()
	for _, r := range rs {
		if r.Measurement != sensors.Temperature && r.Measurement != sensors.Humidity {
			continue
		}
		if z.m == nil {
			z.m = make(map[string]*airSample)
		}
		a := z.m[r.Zone]
		if a == nil {
			a = &airSample{}
			z.m[r.Zone] = a
		}
		if r.Measurement == sensors.Temperature {
			a.t, a.tAt = r.Value, r.Time
		} else {
			a.rh, a.rhAt = r.Value, r.Time
		}
	}
}

// get returns zone's temperature and humidity if both are recent.
func (z *zoneAir) get(zone string) (t, rh float64, ok bool) {
	z.mu.Lock()
	defer z.mu.Unlock()
	a := z.m[zone]
	if a == nil || time.Since(a.tAt) > airMaxAge || time.Since(a.rhAt) > airMaxAge {
		return 0, 0, false
	}
	return a.t, a.rh, true
}
