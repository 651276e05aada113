package metrics

import (
	"math"
	"strings"
	"unicode"

	"github.com/climated/climated/sensors"
)

// unit is how a catalogue unit appears on /metrics: the suffix of a
// family's name, the unit in Prometheus' conventions
// (https://prometheus.io/docs/practices/naming/#base-units), and the
// factor from the catalogue's unit to it.
type unit struct {
	suffix string
	factor float64
	// strip is a word that ends a measurement's name and that the
	// suffix says already: battery_percent is battery_ratio, not
	// battery_percent_ratio.
	strip string
}

// units maps the catalogue's Unit strings onto the families' units. The
// conventions' base units where they name one: celsius, pascals (SI, as
// the conventions take seconds and bytes), meters, grams, volts, and a
// ratio (0…1) for a percentage. Quantities the conventions leave out
// keep their customary scale: ppm, decibels, degrees of a compass.
// A measurement with a unit missing here gets no family:
// TestCatalogueUnits fails first, so that adding a unit to the catalogue
// is a line here too.
var units = map[string]unit{
	"":      {factor: 1},
	"°C":    {suffix: "celsius", factor: 1},
	"%":     {suffix: "ratio", factor: 0.01, strip: "percent"},
	"ppm":   {suffix: "ppm", factor: 1},
	"dB":    {suffix: "decibels", factor: 1},
	"hPa":   {suffix: "pascals", factor: 100},
	"mm":    {suffix: "meters", factor: 0.001},
	"µg/m³": {suffix: "grams_per_cubic_meter", factor: 1e-6},
	"mV":    {suffix: "volts", factor: 0.001},
	// The weather station's.
	"km/h": {suffix: "meters_per_second", factor: 1 / 3.6},
	"mm/h": {suffix: "meters_per_second", factor: 0.001 / 3600},
	"km":   {suffix: "meters", factor: 1000},
	"W/m²": {suffix: "watts_per_square_meter", factor: 1},
	"°":    {suffix: "degrees", factor: 1},
}

// familyName is the name of m's family: climated_, its name in snake
// case, its unit's suffix, and _total for an amount (a counter).
func familyName(info sensors.Info, u unit) string {
	name := snake(string(info.Name))
	if u.strip != "" {
		name = strings.TrimSuffix(name, "_"+u.strip)
	}
	if u.suffix != "" && !strings.HasSuffix(name, "_"+u.suffix) {
		name += "_" + u.suffix
	}
	if info.Kind == sensors.Amount {
		name += "_total"
	}
	return "climated_" + name
}

// snake writes a measurement's name in snake case: AbsolutePressure is
// absolute_pressure, VOCIndex voc_index, NOxIndex nox_index, PM25 pm25,
// battery_vp stays. A capital starts a word after a small letter, and
// before a small letter after two or more capitals (VOC|Index), not
// after one (NOx).
func snake(s string) string {
	r := []rune(s)
	var b strings.Builder
	for i, c := range r {
		if i > 0 && unicode.IsUpper(c) && r[i-1] != '_' {
			afterSmall := unicode.IsLower(r[i-1]) || unicode.IsDigit(r[i-1])
			beforeSmall := i+1 < len(r) && unicode.IsLower(r[i+1]) && i >= 2 && unicode.IsUpper(r[i-1]) && unicode.IsUpper(r[i-2])
			if afterSmall || beforeSmall {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}

// scale converts v, in the catalogue's unit and at its decimals, into the
// family's unit at the same precision: 1013.2 hPa is 101320 Pa, 45 % is
// 0.45, 0.279 mm is 0.000279 m, and never 0.45000000000000001.
func (u unit) scale(v float64, decimals int) float64 {
	d := decimals + int(math.Ceil(-math.Log10(u.factor)-1e-9))
	x := v * u.factor
	if d < 0 {
		q := math.Pow10(-d)
		return math.Round(x/q) * q
	}
	p := math.Pow10(d)
	return math.Round(x*p) / p
}

// decimalsOf is how many decimals a step of res has: 4 for 0.0001.
func decimalsOf(res float64) int { return max(0, int(math.Ceil(-math.Log10(res)-1e-9))) }
