package history

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/weather"
)

// Outdoors is what the daily summaries of outdoor zones add to their
// readings: heating and cooling degree days from the day's mean
// temperature, and the sun's times where the house is. They belong to the
// weather outside, so indoor zones' days go without.
type Outdoors struct {
	// DegreeDayBase is the base of both degree days in °C
	// (weather.DefaultDegreeDayBase is the usual one).
	DegreeDayBase float64
	// Place is where the house is; nil gives no sun times.
	Place *Place
	// Outdoor reports whether the configuration or its name puts a zone
	// outdoors; a zone with a measurement only taken outdoors
	// (sensors.Measurement.Outdoor) is outdoors anyway. Nil: only those.
	Outdoor func(zone string) bool
}

// Place is a point on the Earth in degrees: latitude north, longitude
// east (south and west negative).
type Place struct{ Latitude, Longitude float64 }

// isOutdoor reports whether zone z, which records ms, is outdoors.
func (o *Outdoors) isOutdoor(z string, ms []sensors.Measurement) bool {
	return (o.Outdoor != nil && o.Outdoor(z)) || slices.ContainsFunc(ms, sensors.Measurement.Outdoor)
}

// addOutdoors adds to the days of an outdoor zone (each starting at the
// local midnight of its date) the degree days of its mean temperature and
// the sun's times.
func (o *Outdoors) addOutdoors(days []Day, loc *time.Location) {
	for i := range days {
		d := &days[i]
		if t, ok := d.Measurements[string(sensors.Temperature)]; ok {
			heat, cool := weather.DegreeDays(t.Mean, o.DegreeDayBase)
			d.HDD, d.CDD = new(math.Round(heat*10)/10), new(math.Round(cool*10)/10)
		}
		if o.Place != nil {
			day, _ := time.ParseInLocation(time.DateOnly, d.Date, loc)
			d.addSun(weather.SunTimes(day.Add(12*time.Hour), o.Place.Latitude, o.Place.Longitude), loc)
		}
	}
}

// addSun sets the day's sunrise and sunset (HH:MM local) and its
// daylight; a day the sun does not rise or set has its daylight only
// (0h or 24h).
func (d *Day) addSun(s weather.Daylight, loc *time.Location) {
	if !s.Sunrise.IsZero() {
		d.Sunrise, d.Sunset = hhmm(s.Sunrise, loc), hhmm(s.Sunset, loc)
	}
	m := int(s.Length.Round(time.Minute) / time.Minute)
	d.Daylight = fmt.Sprintf("%dh%02dm", m/60, m%60)
}

// hhmm is t to the nearest minute, as NOAA's calculator shows it.
func hhmm(t time.Time, loc *time.Location) string {
	return t.Round(time.Minute).In(loc).Format("15:04")
}
