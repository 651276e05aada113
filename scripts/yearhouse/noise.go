package main

import "math"

// The weather is made of smooth noise that depends only on the seed and
// the absolute time: every value at a minute is the same on every run
// with the same seed, whatever minute the house starts at, and no state
// is carried from one minute to the next.

// splitmix64 is a good 64-bit mixer (Steele, Lea and Flood, 2014).
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// field is one stream of smooth noise: values at knots every period
// seconds, roughly normal (mean 0, standard deviation 1), eased between.
type field struct {
	key    uint64
	period int64
}

func newField(seed uint64, name string, period int64) field {
	k := seed
	for _, c := range name {
		k = splitmix64(k ^ uint64(c))
	}
	return field{key: k, period: period}
}

// knot is the value at knot i: the sum of three uniforms, scaled to a
// standard deviation of 1.
func (f field) knot(i int64) float64 {
	h := splitmix64(f.key ^ uint64(i)*0x9e3779b97f4a7c15)
	var s float64
	for range 3 {
		s += float64(h&0xffff)/65535 - 0.5
		h >>= 16
	}
	return s * 2 // var of a uniform on ±0.5 is 1/12; three of them: 1/4
}

// at is the field at Unix second t: the knots either side, eased by a
// cosine.
func (f field) at(t int64) float64 {
	i := floorDiv(t, f.period)
	frac := float64(t-i*f.period) / float64(f.period)
	w := (1 - math.Cos(math.Pi*frac)) / 2
	return f.knot(i)*(1-w) + f.knot(i+1)*w
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// jitter is a value in [-1, 1) that changes every t, for a reading's own
// noise.
func (f field) jitter(t int64) float64 {
	return float64(splitmix64(f.key^uint64(t))>>11)/float64(1<<52) - 1
}
