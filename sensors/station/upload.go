package station

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/climated/climated/sensors"
)

// Measurements decoded here that the catalogue does not have yet, by the
// names they will have: Netatmo's for wind (km/h and degrees).
const (
	WindStrength      sensors.Measurement = "WindStrength"   // km/h, the mean
	WindAngle         sensors.Measurement = "WindAngle"      // degrees from north, clockwise
	GustStrength      sensors.Measurement = "GustStrength"   // km/h
	MaxWindStrength   sensors.Measurement = "max_wind_str"   // km/h, the day's strongest gust
	SolarRadiation    sensors.Measurement = "SolarRadiation" // W/m²
	UV                sensors.Measurement = "UV"             // UV index
	RainRate          sensors.Measurement = "RainRate"       // mm/h
	SoilMoisture      sensors.Measurement = "SoilMoisture"   // %
	LeafWetness       sensors.Measurement = "LeafWetness"    // %
	Leak              sensors.Measurement = "Leak"           // 1 when water is detected
	LightningStrikes  sensors.Measurement = "LightningStrikes"
	LightningDistance sensors.Measurement = "LightningDistance" // km, of the last strike
	LightningTime     sensors.Measurement = "LightningTime"     // Unix seconds, of the last strike
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
	MM    float64
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
		return nil, fmt.Errorf("no station: the upload has no %s", map[string]string{Ecowitt: "PASSKEY", Wunderground: "ID"}[protocol])
	}
	u.Time = uploadTime(u, form.Get("dateutc"))
	ambient := strings.HasPrefix(form.Get("stationtype"), "AMBWeather")
	parts := map[string]map[sensors.Measurement]float64{}
	for _, key := range sortedKeys(form) {
		s, n, ok := lookupSpec(specs, key)
		if !ok {
			continue
		}
		u.field(parts, s, n, key, form.Get(key), o, ambient)
	}
	for name, vals := range parts {
		u.Parts = append(u.Parts, Part{name, vals})
	}
	sort.Slice(u.Parts, func(i, j int) bool { return u.Parts[i].Name < u.Parts[j].Name })
	sort.Slice(u.Counters, func(i, j int) bool {
		a, b := u.Counters[i], u.Counters[j]
		return a.Piezo != b.Piezo && b.Piezo || a.Piezo == b.Piezo && a.Name < b.Name
	})
	return u, nil
}

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
