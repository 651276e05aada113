package config

import (
	"github.com/climated/climated/history"
	"github.com/climated/climated/sensors/field"
)

// Bounds of degree_day_base, °C: from the 0 °C of freezing degree days to
// well above the 18 °C of heating ones.
const minDegreeDayBase, maxDegreeDayBase = -30, 40

// validateOutdoors checks location: and degree_day_base.
func (c *Config) validateOutdoors() error {
	if b := c.DegreeDayBase; b < minDegreeDayBase || b > maxDegreeDayBase {
		return field.Errorf("degree_day_base", "degree_day_base %g: want %d to %d °C (18 heats a house in Europe, 65 °F is 18.3)", b, minDegreeDayBase, maxDegreeDayBase)
	}
	if c.Place == nil {
		return nil
	}
	for _, k := range []struct {
		key   string
		v     *float64
		limit float64
		eg    string
	}{
		{"latitude", c.Place.Latitude, 90, "latitude: 52.52 (degrees north; south is negative)"},
		{"longitude", c.Place.Longitude, 180, "longitude: 13.40 (degrees east; west is negative)"},
	} {
		switch {
		case k.v == nil:
			return field.Errorf("location."+k.key, "location.%s: missing: write it as %s", k.key, k.eg)
		case *k.v < -k.limit || *k.v > k.limit:
			return field.Errorf("location."+k.key, "location.%s %g: want -%g to %g, e.g. %s", k.key, *k.v, k.limit, k.limit, k.eg)
		}
	}
	return nil
}

// Outdoors is what the outdoor zones' daily summaries add: degree days
// against degree_day_base, and the sun's times at location when it is
// set. The outdoor zones are alerts.house.outdoor's, else those whose name
// says so, and any with a station's wind, sun or rain.
func (c *Config) Outdoors() *history.Outdoors {
	o := &history.Outdoors{DegreeDayBase: c.DegreeDayBase, Outdoor: c.Alerts.House.IsOutdoor}
	if c.Place != nil && c.Place.Latitude != nil && c.Place.Longitude != nil {
		o.Place = &history.Place{Latitude: *c.Place.Latitude, Longitude: *c.Place.Longitude}
	}
	return o
}
