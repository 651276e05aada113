package sensors

import "slices"

// outdoorOnly are the measurements only a sensor outdoors takes: a
// station's wind, sun, rain and lightning, a rain gauge.
var outdoorOnly = []Measurement{
	WindStrength, WindAngle, GustStrength, GustAngle, SolarRadiation, UV,
	RainRate, Rain, Lightning, LightningDistance,
}

// Outdoor reports whether only a sensor outdoors takes m: a zone that has
// one is outdoors whatever its name.
func (m Measurement) Outdoor() bool { return slices.Contains(outdoorOnly, m) }
