package demo

import (
	"math"
	"time"
)

// The air in the living room, where the main station is a SEN55-like
// sensor (PM1, PM2.5, PM4, PM10, VOC and NOx indices). Hours are on the
// local wall clock.
//
// The living room has an open kitchen. Its particulate matter is the sum of
// sources, each with its own spread over the sizes (PM1, PM4 and PM10 as
// multiples of its PM2.5, at most 1, at least 1, at least PM4's), so that
// PM1 ≤ PM2.5 ≤ PM4 ≤ PM10 at every instant:
//   - outdoor PM2.5 of 5 µg/m³ in midsummer to 13 in midwinter, times
//     0.5…1.5 over 36-hour periods (sizes 0.70, 1.20, 1.60); it is not
//     reported, but 45 % of it gets in (0.75, 1.10, 1.25);
//   - 1 ± 0.3 µg/m³ from indoor sources, and 1.5 µg/m³ of coarse dust
//     (0.30, 1.80, 3.00) while people are home (06:30…08:30, 17:30…23:00,
//     10:00…17:00 at weekends);
//   - cooking (0.85, 1.04, 1.07), twice a day. Breakfast on the electric
//     toaster and kettle starts at 07:00…07:20 and lasts 10 minutes; dinner
//     on the gas hob starts at 18:00…18:40 and lasts 40 minutes (the seed
//     and the date decide the minute). Each meal has a strength per day
//     that sets its peaks above the background: PM2.5 +30…60 µg/m³ and a
//     VOC index of 180…260 at breakfast; PM2.5 +60…150 µg/m³, a VOC index
//     of 250…400 and a NOx index of 31…151 at dinner. The fumes rise towards
//     the peak with a time constant of 4 minutes (two thirds of it within 5
//     minutes), reach it when the cooking stops, and fall with a time
//     constant of 20 minutes (the hood on), to a tenth within the hour.
//
// Ten minutes after dinner the kitchen window is opened for 20 minutes
// (ramps of 8 minutes). The share of fresh outdoor air in the room grows
// while it is open (time constant 10 minutes, to about 0.7) and fades once
// it is shut (30 minutes): it takes the room's particle background towards
// the outdoor air, its VOC index towards 70, its CO₂ excess over 420 ppm
// and the people's moisture away, and cools the room by up to 0.7 °C in
// midwinter (0.3 °C in midsummer); the cooking's fumes fall faster while
// the window is open (a further time constant of 10 minutes).
//
// The VOC index is 100 ± 8 (drifting over 3 hours) outside the episodes,
// Sensirion's baseline of the room's 24-hour average; the NOx index is 1,
// the room's usual air, except while the gas hob's fumes linger.
const (
	outdoorPMSummer = 5.0        // µg/m³, outdoor PM2.5 in midsummer (times 0.5 … 1.5 with the weather)
	outdoorPMWinter = 13.0       // µg/m³, … in midwinter (heating, inversions)
	infiltration    = 0.45       // share of the outdoor PM2.5 that gets in with the windows closed
	indoorPM        = 1.0        // µg/m³ of PM2.5 from indoor sources besides cooking
	dustPM          = 1.5        // µg/m³ of PM2.5 of dust that people stir up while they are home
	cookRise        = 4.0 / 60   // hours, time constant of the rise while cooking
	cookDecay       = 20.0 / 60  // hours, time constant of the fall after cooking (hood on, window shut)
	airingDecay     = 10.0 / 60  // hours, time constant of the extra fall while the window is open
	airingDelay     = 10.0 / 60  // hours after dinner that the kitchen window is opened …
	airingLength    = 20.0 / 60  // … for this long
	airingRamp      = 8.0 / 60   // hours it takes the window's effect to set in and to fade
	airingRefill    = 30.0 / 60  // hours, time constant of the room's return to its own air once the window is shut
	airingWarmth    = 1.0        // °C the room would lose in midwinter if all its air were fresh (0.4 in midsummer)
	vocBase         = 100.0      // the VOC index's baseline: the room's 24-hour average
	vocDrift        = 8.0        // the baseline drifts by up to this much over 3 hours
	vocFresh        = 70.0       // the VOC index of outdoor air, fewer VOCs than the room's usual
	noxBase         = 1.0        // the NOx index of the room's usual air
	indexMin        = 1.0        // Sensirion's indices are clamped to 1 …
	indexMax        = 500.0      // … 500
	minutes         = 1.0 / 60.0 // hours
)

// meal is a cooking episode: it starts between start and start+spread on
// the wall clock (the seed and the day decide), lasts length hours and
// raises PM2.5, the VOC index and the NOx index by up to the given peaks
// (one strength per day and meal, between the lower and the upper bound).
type meal struct {
	name          string
	start, spread float64 // hours
	length        float64 // hours
	pm, voc, nox  [2]float64
	stream        stream
}

// The household's cooking episodes, every day: breakfast on the electric
// toaster and kettle (no NOx), dinner on the gas hob.
var (
	breakfast = meal{name: "breakfast", start: 7, spread: 20 * minutes, length: 10 * minutes,
		pm: [2]float64{30, 60}, voc: [2]float64{180, 260}, stream: sBreakfast}
	dinner = meal{name: "dinner", start: 18, spread: 40 * minutes, length: 40 * minutes,
		pm: [2]float64{60, 150}, voc: [2]float64{250, 400}, nox: [2]float64{30, 150}, stream: sDinner}
	meals = []meal{breakfast, dinner}
)

// cooking is one day's episode of a meal: its times in wall-clock hours and
// its peaks above the room's background.
type cooking struct {
	start, end   float64
	pm, voc, nox float64
}

// cooking returns the episode of m on the given local date.
func (h *House) cooking(m meal, day int64) cooking {
	start := m.start + m.spread*h.unit(m.stream, day)
	u := h.unit(m.stream+sStrength, day) // one strength for PM, VOC and NOx: frying makes all three
	between := func(r [2]float64) float64 { return r[0] + (r[1]-r[0])*u }
	return cooking{start: start, end: start + m.length, pm: between(m.pm), voc: between(m.voc), nox: between(m.nox)}
}

// airing is when the kitchen window is open on a date: airingDelay after
// dinner ends, for airingLength.
func (h *House) airing(day int64) (open, shut float64) {
	open = h.cooking(dinner, day).end + airingDelay
	return open, open + airingLength
}

// fresh is the share of the living room's air that is fresh outdoor air
// let in by the kitchen window, 0 … 1: it grows while the window is open
// (time constant airingDecay) and fades once it is shut, as people, walls
// and the usual sources make the room's air its own again (airingRefill).
func (h *House) fresh(in instant) float64 {
	on, off := h.airing(in.day)
	if in.wall <= on {
		return 0
	}
	let := 1 - math.Exp(-h.openHours(in.day, on, in.wall)/airingDecay)
	return let * math.Exp(-math.Max(0, in.wall-off)/airingRefill)
}

// openHours is the integral of open over the wall-clock hours [from, to] of
// the date day: the hours, ramps weighted, that the window was open.
func (h *House) openHours(day int64, from, to float64) float64 {
	on, off := h.airing(day)
	return openIntegral(to-on, off-on) - openIntegral(from-on, off-on)
}

// openIntegral is the integral of window(x, 0, length, airingRamp) from 0 to
// d: smoothstep's antiderivative x³ − x⁴/2 on the ramps, 1 in between.
func openIntegral(d, length float64) float64 {
	r := airingRamp
	ramp := func(x float64) float64 { return r * (x*x*x - x*x*x*x/2) }
	switch {
	case d <= 0:
		return 0
	case d < r:
		return ramp(d / r)
	case d < length-r:
		return r/2 + d - r
	case d < length:
		return length - r - ramp((length-d)/r)
	}
	return length - r
}

// shape is how much of an episode's peak is in the air at in: it rises
// towards the peak while the food cooks (reaching it when the cooking
// stops), then falls, faster while the window is open.
func (h *House) shape(c cooking, in instant) float64 {
	switch {
	case in.wall < c.start:
		return 0
	case in.wall < c.end:
		return (1 - math.Exp(-(in.wall-c.start)/cookRise)) / (1 - math.Exp(-(c.end-c.start)/cookRise))
	}
	vented := h.openHours(in.day, c.end, in.wall)
	return math.Exp(-(in.wall-c.end)/cookDecay - vented/airingDecay)
}

// particles are mass concentrations in µg/m³ of particles up to 1, 2.5, 4
// and 10 µm. Each size includes the smaller ones, so pm1 ≤ pm25 ≤ pm4 ≤ pm10.
type particles struct{ pm1, pm25, pm4, pm10 float64 }

// sizes is how a source's particles spread over the sizes: its PM1, PM4
// and PM10 as multiples of its PM2.5 (f1 ≤ 1 ≤ f4 ≤ f10).
type sizes struct{ f1, f4, f10 float64 }

var (
	outdoorSizes = sizes{0.70, 1.20, 1.60} // urban background, some coarse dust
	infiltSizes  = sizes{0.75, 1.10, 1.25} // walls and window seals keep out more of the coarse particles
	dustSizes    = sizes{0.30, 1.80, 3.00} // stirred-up dust is coarse
	cookSizes    = sizes{0.85, 1.04, 1.07} // cooking fumes are fine
)

// of is the particles of a source with the given PM2.5.
func (s sizes) of(pm25 float64) particles {
	return particles{s.f1 * pm25, pm25, s.f4 * pm25, s.f10 * pm25}
}

func (p particles) plus(q particles) particles {
	return particles{p.pm1 + q.pm1, p.pm25 + q.pm25, p.pm4 + q.pm4, p.pm10 + q.pm10}
}

// toward is p moved the share f of the way to q (0 ≤ f ≤ 1). A mix of
// ordered sizes is ordered.
func (p particles) toward(q particles, f float64) particles {
	mix := func(a, b float64) float64 { return a + (b-a)*f }
	return particles{mix(p.pm1, q.pm1), mix(p.pm25, q.pm25), mix(p.pm4, q.pm4), mix(p.pm10, q.pm10)}
}

// outdoorPM25 is the PM2.5 outside in µg/m³: more in winter, and moving
// with the weather over days.
func (h *House) outdoorPM25(in instant) float64 {
	season := outdoorPMSummer + (outdoorPMWinter-outdoorPMSummer)*(1-summer(in))
	return season * (0.5 + h.smooth01(sOutdoorPM, in.t, 36*time.Hour))
}

// air is what the living room's air-quality sensor measures.
type air struct {
	particles
	voc, nox float64
}

// livingAir is the living room's air at in: the outdoor air that gets in,
// indoor sources, the day's cooking, and the kitchen window opened after
// dinner, which takes the background towards the outdoor air and the
// cooking's fumes away faster.
func (h *House) livingAir(in instant) air {
	outdoor := outdoorSizes.of(h.outdoorPM25(in))
	home := window(in.wall, 6.5, 8.5, 0.5) + window(in.wall, eveningOn, eveningOff, 1.5)
	if in.weekend {
		home += window(in.wall, 10, 17, 1)
	}
	bg := infiltSizes.of(infiltration*outdoor.pm25 + indoorPM*(1+0.3*h.smooth(sIndoorPM, in.t, 2*time.Hour))).
		plus(dustSizes.of(dustPM * math.Min(home, 1)))
	fresh := h.fresh(in)
	bg = bg.toward(outdoor, fresh)
	voc := vocBase + vocDrift*h.smooth(sVOCDrift, in.t, 3*time.Hour)
	voc += (vocFresh - voc) * fresh
	nox := noxBase
	for _, m := range meals {
		c := h.cooking(m, in.day)
		s := h.shape(c, in)
		bg = bg.plus(cookSizes.of(c.pm * s))
		voc += (c.voc - vocBase) * s
		nox += c.nox * s
	}
	return air{particles: bg, voc: clamp(voc, indexMin, indexMax), nox: clamp(nox, indexMin, indexMax)}
}
