package station

import (
	"slices"
	"strings"

	"github.com/climated/climated/internal/excerpt"
	"github.com/climated/climated/sensors"
)

// The source's log lines: a station's first upload, and what of an
// upload could not be read, each kind of line limited (fieldLog,
// rainLog) so that a station that sends the same bad field every minute
// says so once a day.

// logProblems logs each field's problem, and the fields the decoder does
// not know (in one line), at most once a day per station and field.
func (s *Source) logProblems(u *Upload) {
	for _, p := range u.Problems {
		if ok, _ := s.fieldLog.Allow(u.Station+"\x00"+p.Field, s.now()); ok {
			s.log.Warn("station: part of the upload could not be read or recorded (said at most once a day per station and field)", "station", stationID(u.Station), "model", u.Model, "field", excerpt.Cut(p.Field), "err", excerpt.Cut(p.Err.Error()))
		}
	}
	var fresh []string
	for _, f := range u.Unknown {
		// A limiter of their own: made-up fields use none of the lines a
		// real field's problem gets.
		if ok, _ := s.unknownLog.Allow(u.Station+"\x00?"+f, s.now()); ok {
			fresh = append(fresh, excerpt.Cut(f))
		}
	}
	if len(fresh) > 0 {
		s.log.Info("station: fields the hub does not read (said at most once a day per station and field)", "station", stationID(u.Station), "model", u.Model, "fields", fresh)
	}
}

// logRefused logs the readings of an upload the history refused for
// their own sake (a value outside its measurement's range).
func (s *Source) logRefused(u *Upload, err error) {
	if ok, _ := s.fieldLog.Allow(u.Station+"\x00refused", s.now()); ok {
		s.log.Warn("station: part of the upload could not be read or recorded (said at most once a day per station and field)", "station", stationID(u.Station), "model", u.Model, "field", "refused", "err", err)
	}
}

// logFirst logs a station's first upload since the hub started: who sent
// it, and the zones and measurements it brought.
func (s *Source) logFirst(u *Upload, rs []sensors.Reading) {
	seen := map[string][]string{}
	for _, r := range rs {
		seen[r.Zone] = append(seen[r.Zone], string(r.Measurement))
	}
	zones := make([]string, 0, len(seen))
	for z, ms := range seen {
		slices.Sort(ms)
		zones = append(zones, z+": "+strings.Join(slices.Compact(ms), " "))
	}
	slices.Sort(zones)
	s.log.Info("station: first upload", "station", stationID(u.Station), "model", u.Model, "protocol", u.Protocol, "readings", len(rs), "zones", zones)
}

// logRain logs a rain counter the gauge refused or took as a new
// baseline, with its value: each gauge's at most once a minute.
func (s *Source) logRain(u *Upload, gauge string, err error) {
	if ok, n := s.rainLog.Allow(u.Station+"\x00"+gauge, s.now()); ok {
		s.log.Warn("station: a rain counter not counted (said at most once a minute per gauge)", "station", stationID(u.Station), "model", u.Model, "gauge", gauge, "err", err, "more_since_last_line", n)
	}
}
