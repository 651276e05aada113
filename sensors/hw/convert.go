package hw

import (
	"fmt"
	"github.com/climated/climated/sensors/field"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/climated/climated/sensors"
)

// SeaLevelPressure reduces the station pressure p (hPa) measured at
// altitude h (metres) to sea level: sensors.SeaLevelPressure, the formula
// the MQTT devices' pressures share.
func SeaLevelPressure(p, h float64) float64 { return sensors.SeaLevelPressure(p, h) }

// assignProviders decides which of its measurements each sensor provides
// for its zone, when a zone has several chips measuring the same thing:
//
//  1. A sensor that lists provides gives exactly those measurements.
//  2. A measurement listed by one sensor of a zone is provided by it
//     alone; listed by two, it is an error.
//  3. Otherwise the most precise chip provides it (sht4x, sht3x, hdc302x;
//     mcp9808; tmp102, ds18b20; bme280, bmp280; aht20; bmp180, am2320;
//     sen5x, sps30; scd30, scd4x; ccs811 and sgp30 last), the first configured on a
//     tie. An NDIR CO₂ chip (scd4x, scd30) is preferred to an estimating
//     one (ccs811, sgp30).
func assignProviders(ss []SensorConfig) ([]map[sensors.Measurement]bool, error) {
	out := make([]map[sensors.Measurement]bool, len(ss))
	for i := range out {
		out[i] = make(map[sensors.Measurement]bool)
	}
	listed, err := listedProviders(ss, out)
	if err != nil {
		return nil, err
	}
	for k, i := range bestProviders(ss, listed) {
		out[i][k.m] = true
	}
	return out, nil
}

// zoneMeasurement is a measurement of a zone, which one sensor provides.
type zoneMeasurement struct {
	zone string
	m    sensors.Measurement
}

// listedProviders marks in out what each sensor's provides lists (rules
// 1 and 2) and returns which sensor lists each measurement of a zone.
func listedProviders(ss []SensorConfig, out []map[sensors.Measurement]bool) (map[zoneMeasurement]int, error) {
	listed := make(map[zoneMeasurement]int)
	for i, s := range ss {
		for _, m := range s.Provides {
			k := zoneMeasurement{s.Zone, m}
			if j, dup := listed[k]; dup && j != i {
				return nil, field.Errorf(fmt.Sprintf("sensors[%d].provides", i), "sensors[%d].provides: zone %s gets %s from sensors[%d] already; list it in the provides of one sensor only", i, s.Zone, m, j)
			}
			listed[k] = i
			out[i][m] = true
		}
	}
	return listed, nil
}

// bestProviders picks, for each measurement of a zone that no provides
// lists, the sensor of the most precise chip (rule 3).
func bestProviders(ss []SensorConfig, listed map[zoneMeasurement]int) map[zoneMeasurement]int {
	best := make(map[zoneMeasurement]int)
	for i, s := range ss {
		if len(s.Provides) > 0 {
			continue
		}
		chip := lookupChip(s.Chip)
		for _, m := range chip.measures {
			k := zoneMeasurement{s.Zone, m}
			if _, ok := listed[k]; ok {
				continue
			}
			if j, ok := best[k]; !ok || chip.rank < lookupChip(ss[j].Chip).rank {
				best[k] = i
			}
		}
	}
	return best
}

// convert turns what a chip measured into readings: offsets added,
// humidity kept within 0…100 %, sea-level Pressure derived from the
// station pressure, every value checked against the chip's and the
// measurement's range (a value outside drops the whole sample, since the
// other values of a chip that misreads one are suspect too), and only the
// measurements the sensor provides kept.
func (p *spec) convert(vs []value, t time.Time) ([]sensors.Reading, error) {
	var out []sensors.Reading
	emit := func(m sensors.Measurement, v float64) error {
		info, _ := sensors.Lookup(m)
		lo, hi := info.Min, info.Max
		if m == sensors.Temperature {
			lo, hi = max(lo, p.chip.temp[0]), min(hi, p.chip.temp[1])
		}
		if math.IsNaN(v) || v < lo || v > hi {
			return &RangeError{Measurement: m, Value: v, Min: lo, Max: hi}
		}
		if p.provides[m] {
			out = append(out, sensors.Reading{Zone: p.zone, Measurement: m, Value: m.Round(v, 2), Time: t, Source: p.name})
		}
		return nil
	}
	for _, x := range vs {
		v := x.v
		switch x.m {
		case sensors.Temperature:
			v += p.offsets.Temperature
		case sensors.Humidity:
			v = min(max(v+p.offsets.Humidity, 0), 100)
		case sensors.AbsolutePressure:
			v += p.offsets.Pressure
			if err := emit(sensors.Pressure, SeaLevelPressure(v, p.altitude)); err != nil {
				return nil, err
			}
		}
		if err := emit(x.m, v); err != nil {
			return nil, err
		}
	}
	slices.SortStableFunc(out, func(a, b sensors.Reading) int { return strings.Compare(string(a.Measurement), string(b.Measurement)) })
	return out, nil
}

var w1ID = regexp.MustCompile(`^(10|22|28|3b|42)-[0-9a-f]{12}$`)

func validW1ID(id string) bool { return w1ID.MatchString(id) }
