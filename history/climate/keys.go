package climate

// Structure is the get_climate structure: zone name → key → value, where a
// value is a float64 (a measurement), an int64 (a Unix time) or a trend
// word. A measurement's key is its name (sensors.Measurement); the keys
// below are the ones derived rather than recorded.
type Structure map[string]map[string]any

// Keys of the structure that are derived rather than recorded.
const (
	KeyMinTemp       = "min_temp"
	KeyMaxTemp       = "max_temp"
	KeyDateMinTemp   = "date_min_temp"
	KeyDateMaxTemp   = "date_max_temp"
	KeyTempTrend     = "temp_trend"
	KeyPressureTrend = "pressure_trend"
	KeySumRain1      = "sum_rain_1"
	KeySumRain24     = "sum_rain_24"
	KeyWhen          = "When"
)

// TimeKeys are the keys whose values are Unix times.
var TimeKeys = []string{KeyWhen, KeyDateMinTemp, KeyDateMaxTemp}
