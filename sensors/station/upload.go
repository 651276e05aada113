package station

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/climated/climated/internal/excerpt"
	"github.com/climated/climated/sensors"
)

// Protocols.
const (
	Ecowitt      = "ecowitt"
	Wunderground = "wunderground"
)

// Upload is one upload, decoded.
type Upload struct {
	Protocol string
	Station  string    // who sent it: the PASSKEY (Ecowitt) or the ID (Weather Underground)
	Model    string    // model, else stationtype or softwaretype
	Time     time.Time // dateutc; zero when the station sent "now" or nothing
	Parts    []Part    // by name
	Counters []Counter // cumulative rain, by name
	Problems []Problem // fields that could not be read; the rest is decoded
	Unknown  []string  // fields the decoder does not know, by name
}

// Part is one part of the station and its values.
type Part struct {
	Name   string // console, outdoor, channel1…8, soil1…, leaf1…, leak1…, pm25_1…, co2, lightning
	Values map[sensors.Measurement]float64
}

// Counter is a cumulative rain total of the station's, in mm: it grows
// with the rain and is reset at the end of its period (hourly, event,
// daily, weekly, monthly, yearly; total only when the console is reset).
type Counter struct {
	Name  string // total, yearly, monthly, weekly, daily, event, hourly
	Piezo bool   // the WS90's or WS85's piezo gauge, not the tipping bucket
	// Strikes: not rain but the lightning sensor's count of strikes
	// (lightning_num, the day's), counted as the rain is.
	Strikes bool
	MM      float64
}

// Problem is a field that could not be read.
type Problem struct {
	Field string
	Err   error
}

func (p Problem) Error() string { return p.Field + ": " + p.Err.Error() }

// Options say how a station's fields are to be read.
type Options struct {
	// Metric: the station sends metric values in the imperial fields
	// (°C, hPa, mm, km/h), as some firmware can be set to.
	Metric bool
}

// Decode decodes the fields of one upload in protocol (Ecowitt or
// Wunderground).
func Decode(protocol string, form url.Values, o Options) (*Upload, error) {
	u := &Upload{Protocol: protocol}
	var specs map[string]spec
	switch protocol {
	case Ecowitt:
		u.Station, specs = form.Get("PASSKEY"), ecowittFields
		u.Model = first(form.Get("model"), form.Get("stationtype"))
	case Wunderground:
		u.Station, specs = form.Get("ID"), wundergroundFields
		u.Model = form.Get("softwaretype")
	default:
		return nil, fmt.Errorf("unknown protocol %q", protocol)
	}
	if u.Station == "" {
		return nil, errNoStation
	}
	u.Model = excerpt.Cut(u.Model) // it names the readings' source and every log line

	u.Time = uploadTime(u, form.Get("dateutc"))
	ambient := strings.HasPrefix(form.Get("stationtype"), "AMBWeather")
	parts := map[string]map[sensors.Measurement]float64{}
	for _, key := range sortedKeys(form) {
		s, n, ok := lookupSpec(specs, key)
		if !ok {
			if !unread(key) {
				u.Unknown = append(u.Unknown, key)
			}
			continue
		}
		u.field(parts, s, n, key, form.Get(key), o, ambient)
	}
	for name, vals := range parts {
		u.Parts = append(u.Parts, Part{name, vals})
	}
	sort.Slice(u.Parts, func(i, j int) bool { return u.Parts[i].Name < u.Parts[j].Name })
	// The tipping bucket's, then the piezo gauge's, then the strikes; by
	// name within each.
	rank := func(c Counter) string { return fmt.Sprint(c.Strikes, c.Piezo, c.Name) }
	sort.Slice(u.Counters, func(i, j int) bool { return rank(u.Counters[i]) < rank(u.Counters[j]) })
	return u, nil
}

// errNoStation: an upload that names no station. Consoles always send
// one; a hand-made upload (curl, a script) must too.
var errNoStation = fmt.Errorf("the upload names no station: an Ecowitt upload carries PASSKEY=<the station's key> (a Weather Underground one ID=<station ID>); the console sends it, a hand-made upload must too")

// uploadTime is dateutc ("2022-05-18 18:17:37", URL-decoded); "now" or
// none is zero, a value that cannot be read a problem.
func uploadTime(u *Upload, s string) time.Time {
	if s == "" || s == "now" {
		return time.Time{}
	}
	t, err := time.Parse("2006-01-02 15:04:05", s)
	if err != nil {
		u.Problems = append(u.Problems, Problem{"dateutc", fmt.Errorf("%q is not a time like 2022-05-18 18:17:37", s)})
		return time.Time{}
	}
	return t
}

func first(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

func sortedKeys(form url.Values) []string {
	keys := make([]string, 0, len(form))
	for k := range form {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
