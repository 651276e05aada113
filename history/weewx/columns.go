package weewx

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/climated/climated/sensors"
)

// group is what kind of unit a column's values are in: weewx's unit
// groups, as far as the columns read need them.
type group int

const (
	asStored    group = iota // the same in every unit system: %, °, W/m², the UV index, µg/m³, ppm, dB, counts
	temperature              // °F in US, °C in METRIC and METRICWX
	pressure                 // inHg, mbar
	speed                    // mph, km/h, m/s
	rain                     // in, cm, mm
	rainRate                 // in/h, cm/h, mm/h
	distance                 // mi, km
)

// weewx's unit systems, the values of the usUnits column.
const (
	US       = 1
	METRIC   = 16
	METRICWX = 17
)

// units spells each group's unit in each unit system as the catalogue's
// conversions know it (weewx's units.py: USUnits, MetricUnits,
// MetricWXUnits).
var units = map[int][]string{
	//         asStored, temperature, pressure, speed, rain, rainRate, distance
	US:       {"", "°F", "inHg", "mph", "in", "in/h", "mi"},
	METRIC:   {"", "°C", "mbar", "km/h", "cm", "cm/h", "km"},
	METRICWX: {"", "°C", "mbar", "m/s", "mm", "mm/h", "km"},
}

// column is what a column of weewx's becomes: a measurement of the zone
// of a part of the station.
type column struct {
	part string
	m    sensors.Measurement
	g    group
}

// columns are the columns read, by weewx's name. The parts are those of
// the hub's own weather station (sensors/station), so that an archive
// lands in the zones the station's uploads go on with: the console (the
// indoor sensor and the barometer), the outdoor array, the extra
// sensors (channelN), soil and leaf stations, the lightning detector;
// "air" is the air-quality columns of wview_extended.
var columns = map[string]column{
	"outTemp":     {"outdoor", sensors.Temperature, temperature},
	"outHumidity": {"outdoor", sensors.Humidity, asStored},
	"windSpeed":   {"outdoor", sensors.WindStrength, speed},
	"windDir":     {"outdoor", sensors.WindAngle, asStored},
	"windGust":    {"outdoor", sensors.GustStrength, speed},
	"windGustDir": {"outdoor", sensors.GustAngle, asStored},
	"rain":        {"outdoor", sensors.Rain, rain},
	"rainRate":    {"outdoor", sensors.RainRate, rainRate},
	"radiation":   {"outdoor", sensors.SolarRadiation, asStored},
	"UV":          {"outdoor", sensors.UV, asStored},

	"inTemp":     {"console", sensors.Temperature, temperature},
	"inHumidity": {"console", sensors.Humidity, asStored},
	"barometer":  {"console", sensors.Pressure, pressure},
	"pressure":   {"console", sensors.AbsolutePressure, pressure},

	"lightning_strike_count": {"lightning", sensors.Lightning, asStored},
	"lightning_distance":     {"lightning", sensors.LightningDistance, distance},

	"pm1_0":  {"air", sensors.PM1, asStored},
	"pm2_5":  {"air", sensors.PM25, asStored},
	"pm10_0": {"air", sensors.PM10, asStored},
	"co2":    {"air", sensors.CO2, asStored},
	"noise":  {"air", sensors.Noise, asStored},
}

// numbered are the columns weewx numbers (extraTemp1, soilMoist2 …):
// each number is a part of its own (channel1, soil2 …).
var numbered = map[string]column{
	"extraTemp":  {"channel", sensors.Temperature, temperature},
	"extraHumid": {"channel", sensors.Humidity, asStored},
	"soilTemp":   {"soil", sensors.Temperature, temperature},
	"soilMoist":  {"soil", sensors.SoilMoisture, asStored},
	"leafTemp":   {"leaf", sensors.Temperature, temperature},
	"leafWet":    {"leaf", sensors.LeafWetness, asStored},
}

var numberedName = regexp.MustCompile(`^([A-Za-z]+)([1-9][0-9]?)$`)

// lookup is the column weewx calls name, if it is one the import reads.
func lookup(name string) (column, bool) {
	if c, ok := columns[name]; ok {
		return c, true
	}
	if m := numberedName.FindStringSubmatch(name); m != nil {
		if c, ok := numbered[m[1]]; ok {
			c.part += m[2]
			return c, true
		}
	}
	return column{}, false
}

// DefaultName starts the zone of a part no zone is given for: "Station
// outdoor", as the hub's station names its parts.
const DefaultName = "Station"

// isPart reports whether name is a part of the station (outdoor,
// channel3 …).
func isPart(name string) bool {
	for _, c := range columns {
		if c.part == name {
			return true
		}
	}
	for _, c := range numbered {
		if rest, ok := strings.CutPrefix(name, c.part); ok && numberedName.MatchString("x"+rest) {
			return true
		}
	}
	return false
}

// checkZones checks the keys of zones: each a column the import reads
// or a part of the station.
func checkZones(zones map[string]string) error {
	var bad []string
	for k := range zones {
		if _, ok := lookup(k); !ok && !isPart(k) {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	return fmt.Errorf("zone for %s: neither a weewx column the import reads (%s) nor a part of the station (%s)",
		strings.Join(bad, ", "), strings.Join(ColumnNames(), ", "), strings.Join(parts(), ", "))
}

// ColumnNames are the columns the import reads, the numbered ones as
// extraTempN.
func ColumnNames() []string {
	var names []string
	for n := range columns {
		names = append(names, n)
	}
	for n := range numbered {
		names = append(names, n+"N")
	}
	sort.Strings(names)
	return names
}

func parts() []string {
	var ps []string
	for _, c := range columns {
		ps = append(ps, c.part)
	}
	for _, c := range numbered {
		ps = append(ps, c.part+"N")
	}
	sort.Strings(ps)
	return slices.Compact(ps)
}
