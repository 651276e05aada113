package demo

import (
	"math"
	"time"
)

// stream names one independent sequence of noise, so that, say, the pressure
// drift and the temperature drift of the same house do not move together.
type stream uint64

const (
	sTempSlow stream = iota + 1
	sTempDay
	sTempAmp
	sTempJitter
	sDewSpread
	sHumJitter
	sPressSlow
	sPressFast
	sShower
	sShowerStart
	sShowerLen
	sShowerPeak
	sRainJitter
	sLivingJitter
	sLivingCO2Base
	sLivingEvening
	sBedJitter
	sBedCO2Base
	sBedNight
	sNoiseDay
	sNoiseNight
	sWiFiBase
	sWiFiJitter
	sBattery // the module streams are offset by module.stream
	sRFBase
	sRFJitter
	sRFFlicker
	sOutdoorPM
	sIndoorPM
	sVOCDrift
	sBreakfast // a meal's start; its strength is the stream plus sStrength
	sDinner
)

// sStrength offsets a meal's stream to the stream of its strength, beyond
// the other streams and below the modules' (module.stream).
const sStrength stream = 64

// splitmix64 is the output function of Steele, Lea and Flood's SplitMix64
// generator: a bijective mix of 64 bits after which neighbouring inputs look
// unrelated. It is all the randomness the demo house has.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// unit returns a number in [0, 1) that depends on the house's seed, the
// stream and i alone.
func (h *House) unit(s stream, i int64) float64 {
	x := splitmix64(h.seed ^ splitmix64(uint64(s)))
	x = splitmix64(x ^ uint64(i))
	return float64(x>>11) / (1 << 53)
}

// signed is unit mapped to [-1, 1).
func (h *House) signed(s stream, i int64) float64 { return 2*h.unit(s, i) - 1 }

// smooth is value noise in [-1, 1]: a random value at every multiple of
// period (counted from the Unix epoch), joined by smoothstep curves, so it is
// continuous, has no kinks and is a function of t alone.
func (h *House) smooth(s stream, t time.Time, period time.Duration) float64 {
	p := int64(period / time.Second)
	sec := t.Unix()
	i := floorDiv(sec, p)
	f := (float64(sec-i*p) + float64(t.Nanosecond())/1e9) / float64(p)
	a, b := h.signed(s, i), h.signed(s, i+1)
	return a + (b-a)*smoothstep(f)
}

// smooth01 is smooth mapped to [0, 1].
func (h *House) smooth01(s stream, t time.Time, period time.Duration) float64 {
	return (h.smooth(s, t, period) + 1) / 2
}

// floorDiv is a / b rounded towards minus infinity, for b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b < 0 {
		q--
	}
	return q
}

// smoothstep eases x from 0 to 1 with zero slope at both ends; x is clamped
// to [0, 1] first.
func smoothstep(x float64) float64 {
	x = clamp(x, 0, 1)
	return x * x * (3 - 2*x)
}

func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }

// mod24 is x modulo 24 in [0, 24).
func mod24(x float64) float64 { return x - 24*math.Floor(x/24) }

// window is 1 between the hours on and off of the day (on > off wraps
// through midnight), 0 outside, with smooth ramps of ramp hours inside both
// edges.
func window(hour, on, off, ramp float64) float64 {
	length := mod24(off - on)
	d := mod24(hour - on)
	if d >= length {
		return 0
	}
	return smoothstep(math.Min(d, length-d) / ramp)
}
