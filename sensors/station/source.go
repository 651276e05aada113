package station

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"github.com/climated/climated/internal/loglimit"
	"github.com/climated/climated/sensors"
)

// Config is the station: section: how parts of the station become zones,
// and which stations may upload.
type Config struct {
	// Zones maps a part (console, outdoor, channel1 …, soil1 …, pm25_1 …,
	// co2, leak1 …, leaf1 …, lightning) to a zone; a part not named here
	// is the zone "<name> <part>" ("Station outdoor").
	Zones map[string]string `yaml:"zones"`
	Name  string            `yaml:"name"` // default "Station"
	// Passkeys are the PASSKEYs (Ecowitt) or IDs (Weather Underground)
	// of the stations allowed; empty: the first MaxStations to upload.
	Passkeys []string `yaml:"passkeys"`
	Metric   bool     `yaml:"metric"` // the station sends metric values in its imperial fields
	// Location is where the station's rain counters begin their periods
	// (its midnight, its 1 January): the hub's time zone; nil: time.Local.
	Location *time.Location `yaml:"-"`
}

// Bounds of what uploads can make the hub hold.
const (
	MaxStations  = 4        // stations tracked at once (their rain gauges, their limits)
	MaxBody      = 16 << 10 // bytes of one upload
	uploadRate   = 1        // uploads a second per station, after a burst
	uploadBurst  = 4
	clockSkewMax = 15 * time.Minute // a dateutc further behind the hub's clock is not believed
	forgetAfter  = 24 * time.Hour   // a station silent this long gives its slot to a new one
)

// StateReader reads a source state committed with its readings
// (history.Store.SourceState).
type StateReader func(ctx context.Context, key string) (string, bool, error)

// Source is the station's readings as uploads bring them (Handler): a
// pushed source (sensors.Pushed), which records into its sink on the
// upload's goroutine from the start, until Close.
type Source struct {
	cfg   Config
	state StateReader
	sink  sensors.Sink
	log   *slog.Logger
	now   func() time.Time

	// open is held for reading by every upload being recorded, and for
	// writing by Close, which so waits for them.
	open   sync.RWMutex
	closed bool

	mu       sync.Mutex
	stations map[string]*tracked
	// Log lines of bad uploads: a field's problem at most once a day per
	// station and field, a gauge's refusals once a minute per gauge.
	fieldLog, rainLog *loglimit.Limiter
	unknownLog        *loglimit.Limiter // fields the decoder does not know, once a day per station and field
}

// tracked is what the hub keeps of one station.
type tracked struct {
	mu     sync.Mutex // one upload at a time: its rain state is recorded in order
	limit  *rate.Limiter
	gauges map[string]*RainGauge // tipping, piezo, as the hub recorded them last
	// next are the gauges as the upload being recorded moves them: they
	// replace gauges once the hub records it (rain and states together).
	next map[string]*RainGauge
	last atomic.Int64 // the latest upload, Unix nanoseconds, for forgetSilent (no lock: read with s.mu held)
	// rainSince is the upload before the one being counted, by the gauge
	// last counted: the interval its rain fell in.
	rainSince time.Time
}

// NewSource is the station source, recording into sink; state restores
// its rain gauges, the first time each is counted.
func NewSource(cfg Config, state StateReader, sink sensors.Sink, log *slog.Logger) *Source {
	if cfg.Name == "" {
		cfg.Name = "Station"
	}
	return &Source{cfg: cfg, state: state, sink: sink, log: log, now: time.Now, stations: map[string]*tracked{},
		fieldLog: loglimit.New(24 * time.Hour), rainLog: loglimit.New(time.Minute), unknownLog: loglimit.New(24 * time.Hour)}
}

// Name is the source's name.
func (s *Source) Name() string { return "station" }

// Close stops the source: it waits for the uploads being recorded, and
// the later ones get sensors.ErrStopped. A reload closes the old station
// before the new one takes uploads, so that the new one restores its rain
// gauges from what the old one recorded last.
func (s *Source) Close() {
	s.open.Lock()
	defer s.open.Unlock()
	s.closed = true
}

// Zones are the zones the configuration names.
func (s *Source) Zones() []string {
	zs := make([]string, 0, len(s.cfg.Zones))
	for _, z := range s.cfg.Zones {
		zs = append(zs, z)
	}
	sort.Strings(zs) // the order MCP and the dashboard list them in, the same at every start
	return slices.Compact(zs)
}

// zone is the zone of a part.
func (s *Source) zone(part string) string {
	if z, ok := s.cfg.Zones[part]; ok {
		return z
	}
	if part == "piezo" {
		return s.zone("outdoor")
	}
	return s.cfg.Name + " " + part
}

// errUnknownStation: the station is not allowed, or too many are tracked.
var errUnknownStation = fmt.Errorf("station not allowed")

// station is the tracked station of key, if it may upload; first when
// it was not tracked before (its first upload since the hub started).
func (s *Source) station(key string) (t *tracked, first bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.stations[key]; ok {
		return t, false, nil
	}
	allowed := len(s.cfg.Passkeys) == 0
	for _, p := range s.cfg.Passkeys {
		allowed = allowed || p == key
	}
	if !allowed {
		return nil, false, errUnknownStation
	}
	if len(s.stations) >= MaxStations && !s.forgetSilent() {
		return nil, false, errUnknownStation
	}
	t = &tracked{limit: rate.NewLimiter(uploadRate, uploadBurst), gauges: map[string]*RainGauge{}, next: map[string]*RainGauge{}}
	t.last.Store(s.now().UnixNano())
	s.stations[key] = t
	return t, true, nil
}

// forgetSilent frees the slot of a station silent for forgetAfter, the
// longest silent first (its rain gauges' states stay in the history, so
// that it goes on where it left off if it comes back); false when every
// station has uploaded since. Called with s.mu held.
func (s *Source) forgetSilent() bool {
	cutoff := s.now().Add(-forgetAfter)
	var oldest string
	var at time.Time
	for k, t := range s.stations {
		if last := t.lastUpload(); last.Before(cutoff) && (oldest == "" || last.Before(at)) {
			oldest, at = k, last
		}
	}
	if oldest == "" {
		return false
	}
	delete(s.stations, oldest)
	s.log.Info("station: a station silent for a day forgotten, its slot given to a new one", "station", stationID(oldest), "last_upload", at)
	return true
}

// lastUpload is when the station was last heard from.
func (t *tracked) lastUpload() time.Time { return time.Unix(0, t.last.Load()) }

// record turns an upload into readings and records them, with the rain
// gauge's state. The gauges move on only when the hub records the
// upload; when it records nothing of it (a guard refused every reading,
// or the upload's context ended first) they are forgotten, and the next
// upload restores them from the history, which counts the upload's rain
// then.
func (s *Source) record(ctx context.Context, u *Upload) error {
	s.open.RLock()
	defer s.open.RUnlock()
	if s.closed || s.sink == nil {
		return sensors.ErrStopped
	}
	t, first, err := s.station(u.Station)
	if err != nil {
		return err
	}
	if !t.limit.Allow() {
		return errTooFast
	}
	t.last.Store(s.now().UnixNano())
	t.mu.Lock()
	defer t.mu.Unlock()
	at := s.uploadTime(u)
	b := sensors.Batch{Readings: s.readings(u, at)}
	clear(t.next)
	if err := s.rain(ctx, t, u, at, &b); err != nil {
		return err
	}
	s.logProblems(u)
	err = s.sink.Record(ctx, b)
	t.settle(err == nil)
	if first && !errors.Is(err, sensors.ErrStopped) {
		s.logFirst(u, b.Readings)
	}
	switch {
	case err == nil, errors.Is(err, sensors.ErrStopped), ctx.Err() != nil:
		return err
	case !errors.Is(err, sensors.ErrNotAdmitted):
		// Readings the history refused for their own sake (a value outside
		// its measurement's range): the others are recorded.
		s.logRefused(u, err)
	}
	// Answered 200 all the same: sent again, the upload would be refused
	// again (its invalid readings; or the hub's clock guard, which says
	// why in the log), and the next upload counts its rain.
	return nil
}

// settle keeps the gauges as the upload moved them when the hub recorded
// it, with their states; otherwise it forgets the station's gauges, the
// history's state of each being the one to count from.
func (t *tracked) settle(recorded bool) {
	if recorded {
		maps.Copy(t.gauges, t.next)
	} else {
		clear(t.gauges)
	}
	clear(t.next)
}

var errTooFast = fmt.Errorf("uploads come faster than %d a second", uploadRate)

// uploadTime is the upload's dateutc when it is at most clockSkewMax
// behind the hub's clock (an upload sent late), else the hub's clock. An
// upload is never dated ahead of the clock: one dated ahead (a console's
// clock running fast, or set wrong) would stay the live value until its
// time came, hiding the uploads after it and deferring their rain; it is
// dated when it came.
func (s *Source) uploadTime(u *Upload) time.Time {
	now := s.now()
	if u.Time.IsZero() || u.Time.After(now) || now.Sub(u.Time) > clockSkewMax {
		return now.Truncate(time.Second)
	}
	return u.Time
}

// readings are the upload's values of the catalogue's measurements.
func (s *Source) readings(u *Upload, at time.Time) []sensors.Reading {
	var rs []sensors.Reading
	src := "station/" + strings.ToLower(first(u.Model, u.Protocol))
	for _, p := range u.Parts {
		for m, v := range p.Values {
			if _, known := sensors.Lookup(m); known {
				rs = append(rs, sensors.Reading{Zone: s.zone(p.Name), Measurement: m, Value: v, Time: at, Source: src})
			}
		}
	}
	return rs
}

// rain counts the rain of the station's gauge (the tipping bucket, else
// the piezo gauge) and its lightning strikes into b's readings, and adds
// the gauges' new states to b's, which the history commits with the
// readings. The distance of the latest strike is kept only from an upload
// that counted strikes: the station repeats it until the next.
func (s *Source) rain(ctx context.Context, t *tracked, u *Upload, at time.Time, b *sensors.Batch) error {
	tipping, piezo, strikes := Gauges(u.Counters)
	name, counters := "tipping", tipping
	if len(tipping) == 0 {
		name, counters = "piezo", piezo
	}
	mm, counted, err := s.count(ctx, t, u, name, counters, at, b)
	if err != nil {
		return err
	}
	if counted {
		b.Readings = append(b.Readings, rainReadings(s.zone("outdoor"), "station/"+name, mm, t.rainSince, at)...)
	}
	n, counted, err := s.count(ctx, t, u, "lightning", strikes, at, b)
	if counted {
		b.Readings = append(b.Readings, sensors.Reading{Zone: s.zone("lightning"), Measurement: sensors.Lightning, Value: n, Time: at, Source: "station/lightning"})
	}
	if !counted || n == 0 {
		b.Readings = slices.DeleteFunc(b.Readings, func(r sensors.Reading) bool { return r.Measurement == sensors.LightningDistance })
	}
	return err
}

// count adds counters, one gauge's, to a copy of the station's gauge of
// that name (t.next, kept by settle) and adds its new state to b's;
// counted is false when the upload says nothing new (see RainGauge.Add).
func (s *Source) count(ctx context.Context, t *tracked, u *Upload, name string, counters []Counter, at time.Time, b *sensors.Batch) (float64, bool, error) {
	if len(counters) == 0 {
		return 0, false, nil
	}
	key := "station " + stationID(u.Station) + " " + name
	kept, err := s.gauge(ctx, t, key)
	if err != nil {
		return 0, false, err
	}
	g := new(RainGauge)
	*g = *kept
	t.next[key] = g
	before, _ := g.State()
	t.rainSince = before.Time
	v, counted, err := g.Add(at, counters)
	if err != nil {
		s.logRain(u, name, err)
	}
	if st, have := g.State(); have {
		js, _ := json.Marshal(st)
		b.States = append(b.States, sensors.State{Key: key, Value: string(js)})
	}
	return v, counted, nil
}

// gauge is the station's gauge of key, restored from the history's state
// the first time.
func (s *Source) gauge(ctx context.Context, t *tracked, key string) (*RainGauge, error) {
	if g, ok := t.gauges[key]; ok {
		return g, nil
	}
	var st *RainState
	if s.state != nil {
		v, ok, err := s.state(ctx, key)
		if err != nil {
			return nil, err
		}
		if ok {
			st = new(RainState)
			if err := json.Unmarshal([]byte(v), st); err != nil {
				s.log.Warn("station: the rain gauge's kept state cannot be read; counting from the next upload", "key", key, "err", err)
				st = nil
			}
		}
	}
	g := NewRainGauge(st, s.cfg.Location)
	t.gauges[key] = g
	return g, nil
}

// stationID names a station in logs and keys without its PASSKEY, which
// is the station's secret on ecowitt.net.
func stationID(passkey string) string {
	h := sha256.Sum256([]byte(passkey))
	return hex.EncodeToString(h[:4])
}

// rainReadings are mm of rain that fell between since and at, as
// readings: one at at, or, when mm is more than one reading may hold
// (the catalogue's Rain maximum: many hours' rain after an outage), as
// many readings, spread evenly over the interval, as it takes.
func rainReadings(zone, src string, mm float64, since, at time.Time) []sensors.Reading {
	info, _ := sensors.Lookup(sensors.Rain)
	n := int(math.Ceil(mm / info.Max))
	if n <= 1 || since.IsZero() || !since.Before(at) {
		return []sensors.Reading{{Zone: zone, Measurement: sensors.Rain, Value: mm, Time: at, Source: src}}
	}
	rs := make([]sensors.Reading, n)
	step := at.Sub(since) / time.Duration(n)
	for i := range rs {
		rs[i] = sensors.Reading{Zone: zone, Measurement: sensors.Rain, Value: mm / float64(n), Time: at.Add(-time.Duration(n-1-i) * step), Source: src}
	}
	return rs
}
