package weather

// DefaultDegreeDayBase is the base of heating and cooling degree days
// unless configured: 18 °C, weewx's default (heating_base and
// cooling_base, 65 °F ≈ 18.3 °C; 18 °C is the European convention).
const DefaultDegreeDayBase = 18.0

// DegreeDays are a day's heating and cooling degree days from its mean
// temperature in °C, against base °C: how far the mean fell below the
// base, and how far it rose above it (weewx's heatdeg and cooldeg).
func DegreeDays(mean, base float64) (heating, cooling float64) {
	if mean < base {
		return base - mean, 0
	}
	return 0, mean - base
}
