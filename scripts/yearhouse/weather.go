package main

import (
	"math"
	"time"
)

// Where the year house stands: Berlin, as in the configuration's example.
const (
	latitude  = 52.52
	longitude = 13.40
)

// weather is the garden's weather model: seasonal and daily cycles, fronts
// passing every few days, clouds, showers and wind, all from smooth noise
// of the seed (noise.go).
type weather struct {
	synoptic, slow, cloud, rain, hum, wind, dir, jit field
}

func newWeather(seed uint64) *weather {
	return &weather{
		synoptic: newField(seed, "synoptic", 2*86400),
		slow:     newField(seed, "slow", 10*86400),
		cloud:    newField(seed, "cloud", 8*3600),
		rain:     newField(seed, "rain", 3*3600),
		hum:      newField(seed, "humidity", 12*3600),
		wind:     newField(seed, "wind", 6*3600),
		dir:      newField(seed, "direction", 12*3600),
		jit:      newField(seed, "jitter", 1),
	}
}

// outside is the garden at one minute.
type outside struct {
	temp, hum, wind, gust, dir, solar, uv, rain float64
	mean                                        float64 // the day's mean temperature around this time, for the rooms
}

// seasonal is 1 in mid-July and -1 in mid-January.
func seasonal(t time.Time) float64 {
	return math.Cos(2 * math.Pi * (float64(t.YearDay()) - 200) / 365.25)
}

// sun is the sun's elevation in radians and the local solar hour at t.
func sun(t time.Time) (elevation, hour float64) {
	doy := float64(t.YearDay())
	decl := 23.44 * math.Pi / 180 * math.Sin(2*math.Pi*(284+doy)/365)
	hour = math.Mod(float64(t.Hour())+float64(t.Minute())/60+longitude/15+24, 24)
	ha := (hour - 12) * 15 * math.Pi / 180
	lat := latitude * math.Pi / 180
	return math.Asin(math.Sin(lat)*math.Sin(decl) + math.Cos(lat)*math.Cos(decl)*math.Cos(ha)), hour
}

// at is the garden's weather at t.
func (w *weather) at(t time.Time) outside {
	u := t.Unix()
	s := seasonal(t)
	elev, hour := sun(t)
	front := w.synoptic.at(u)
	var o outside
	o.mean = 9.5 + 9.5*s + 3.5*front + 1.5*w.slow.at(u)
	cloud := clamp(0.55-0.1*s+0.3*w.cloud.at(u)+0.15*front, 0, 1)
	if elev > 0 {
		clear := 1080 * math.Pow(math.Sin(elev), 1.15)
		o.solar = math.Max(0, clear*(1-0.75*math.Pow(cloud, 2.5))*(1+0.04*w.jit.jitter(u)))
		o.uv = o.solar * math.Sin(elev) / 110
	}
	daily := math.Cos(2 * math.Pi * (hour - 15) / 24)
	o.temp = o.mean + (3+1.5*(s+1))*(1-0.6*cloud)*daily + 0.1*w.jit.jitter(u+1)
	wet := w.rain.at(u) + 1.5*(cloud-0.55)
	const threshold = 1.25
	if wet > threshold {
		o.rain = 0.007 * (wet - threshold) / 0.3 * (1 + 1.5*math.Max(s, 0)) * (1 + 0.5*w.jit.jitter(u+2))
		o.temp -= math.Min(2, (wet-threshold)*4)
	}
	o.hum = clamp(76-14*daily*(1-0.5*cloud)+14*(cloud-0.55)-6*s+5*w.hum.at(u), 18, 100)
	if o.rain > 0 {
		o.hum = math.Max(o.hum, 93)
	}
	o.wind = math.Exp(math.Log(9)+0.5*w.wind.at(u)+0.25*front-0.2*s) * (1 + 0.3*math.Max(0, math.Sin(elev)))
	o.wind = math.Max(0, o.wind*(1+0.25*w.jit.jitter(u+3)))
	o.gust = o.wind*(1.4+0.3*math.Abs(w.jit.jitter(u+4))) + 2*math.Abs(w.jit.jitter(u+5))
	o.dir = math.Mod(250+70*w.dir.at(u)+15*w.jit.jitter(u+6)+720, 360)
	return o
}

func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }

// room is a room's climate, its carbon dioxide kept from one reading to
// the next.
type room struct {
	name     string
	day, pax func(hour float64) float64 // the heating's set point and the people in the room by local hour
	noise    field
	co2      float64
}

// at is the room at t (local time), with the garden's weather o, t five
// minutes after the previous call.
func (r *room) at(t time.Time, o outside) (temp, hum, co2 float64) {
	hour := float64(t.Hour()) + float64(t.Minute())/60
	heat := clamp((16-o.mean)/4, 0, 1)
	free := 20.5 + 0.4*(o.mean-12) + 0.8*math.Cos(2*math.Pi*(hour-17)/24)
	temp = heat*r.day(hour) + (1-heat)*free + 0.002*o.solar + 0.3*r.noise.at(t.Unix()) + 0.05*r.noise.jitter(t.Unix())
	people := r.pax(hour)
	hum = clamp(46+9*seasonal(t)+3*people+3*r.noise.at(t.Unix()+1e6), 25, 72)
	// Each person adds about 500 ppm at the room's steady state; the air
	// changes with a time constant of about an hour and a half.
	target := 420 + 500*people
	r.co2 += (target - r.co2) * (1 - math.Exp(-5.0/90))
	return temp, hum, r.co2 + 8*r.noise.jitter(t.Unix()+2)
}

func newRooms(seed uint64) []*room {
	return []*room{
		{name: "Living", noise: newField(seed, "living", 5*3600), co2: 450,
			day: func(h float64) float64 { return pick(h >= 6.5 && h < 22.5, 21.5, 19) },
			pax: func(h float64) float64 {
				return pick(h >= 18 && h < 23, 3, 0) + pick(h >= 7 && h < 8, 1, 0) + pick(h >= 12 && h < 14, 1, 0)
			}},
		{name: "Bedroom", noise: newField(seed, "bedroom", 5*3600), co2: 450,
			day: func(h float64) float64 { return pick(h >= 21 || h < 6.5, 18.5, 17.5) },
			pax: func(h float64) float64 { return pick(h >= 23 || h < 6.75, 2, 0) }},
	}
}

func pick(cond bool, yes, no float64) float64 {
	if cond {
		return yes
	}
	return no
}
