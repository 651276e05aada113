package weather

import (
	"math"
	"time"
)

// Daylight is what the sun does on a day at a place.
type Daylight struct {
	Sunrise, Sunset time.Time // zero when the sun does not rise or set that day
	Length          time.Duration
	// PolarDay: the sun stays up all day; PolarNight: it stays down.
	PolarDay, PolarNight bool
}

// SunTimes is sunrise, sunset and the day's length on the calendar day of
// day (its date in its own location) at lat, lon degrees (north, east),
// by NOAA's solar calculation (gml.noaa.gov/grad/solcalc/calcdetails.html:
// the sun's declination and the equation of time from Meeus's series, the
// horizon at 90.833° for refraction and the sun's radius), each event
// worked out at its own time rather than at noon, as NOAA's calculator
// does, so that it lands within a minute of NOAA's.
func SunTimes(day time.Time, lat, lon float64) Daylight {
	y, m, d := day.Date()
	midnight := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	rise, okRise := sunEvent(midnight, lat, lon, -1)
	set, okSet := sunEvent(midnight, lat, lon, 1)
	if !okRise || !okSet {
		decl, _ := sunAt(julianDay(midnight.Add(time.Duration((720 - 4*lon) * float64(time.Minute)))))
		up := lat*decl > 0 // the sun stays on the side of the pole that leans towards it
		return Daylight{PolarDay: up, PolarNight: !up, Length: map[bool]time.Duration{true: 24 * time.Hour}[up]}
	}
	return Daylight{Sunrise: rise, Sunset: set, Length: set.Sub(rise)}
}

// sunEvent is the sunrise (sign −1) or sunset (+1) of the UTC day that
// starts at midnight, shifted by the place's longitude; false when the
// sun does not cross the horizon.
func sunEvent(midnight time.Time, lat, lon float64, sign float64) (time.Time, bool) {
	mins := 720 - 4*lon // minutes after midnight UTC: the solar noon, first guess
	for range 3 {
		decl, eqTime := sunAt(julianDay(midnight.Add(time.Duration(mins * float64(time.Minute)))))
		cosHA := math.Cos(rad(90.833))/(math.Cos(rad(lat))*math.Cos(rad(decl))) - math.Tan(rad(lat))*math.Tan(rad(decl))
		if cosHA < -1 || cosHA > 1 {
			return time.Time{}, false
		}
		mins = 720 - 4*lon - eqTime + sign*4*deg(math.Acos(cosHA))
	}
	return midnight.Add(time.Duration(mins * float64(time.Minute))).Round(time.Second), true
}

// sunAt is the sun's declination (degrees) and the equation of time
// (minutes) at Julian day jd, as NOAA's spreadsheet computes them.
func sunAt(jd float64) (decl, eqTime float64) {
	jc := (jd - 2451545) / 36525
	l0 := math.Mod(280.46646+jc*(36000.76983+jc*0.0003032), 360)
	m := 357.52911 + jc*(35999.05029-0.0001537*jc)
	e := 0.016708634 - jc*(0.000042037+0.0000001267*jc)
	c := math.Sin(rad(m))*(1.914602-jc*(0.004817+0.000014*jc)) + math.Sin(rad(2*m))*(0.019993-0.000101*jc) + math.Sin(rad(3*m))*0.000289
	omega := 125.04 - 1934.136*jc
	lambda := l0 + c - 0.00569 - 0.00478*math.Sin(rad(omega))
	eps0 := 23 + (26+(21.448-jc*(46.815+jc*(0.00059-jc*0.001813)))/60)/60
	eps := eps0 + 0.00256*math.Cos(rad(omega))
	decl = deg(math.Asin(math.Sin(rad(eps)) * math.Sin(rad(lambda))))
	yv := math.Pow(math.Tan(rad(eps/2)), 2)
	eqTime = 4 * deg(yv*math.Sin(2*rad(l0))-2*e*math.Sin(rad(m))+4*e*yv*math.Sin(rad(m))*math.Cos(2*rad(l0))-
		0.5*yv*yv*math.Sin(4*rad(l0))-1.25*e*e*math.Sin(2*rad(m)))
	return decl, eqTime
}

// julianDay is the Julian day of t.
func julianDay(t time.Time) float64 { return float64(t.UnixNano())/86400e9 + 2440587.5 }

func rad(d float64) float64 { return d * math.Pi / 180 }
func deg(r float64) float64 { return r * 180 / math.Pi }
