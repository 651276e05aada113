package sensors

// The get_climate structure is zone name → key → value. A measurement's
// key is its name (Measurement); the keys below are derived from the
// readings rather than recorded, and belong to the catalogue beside the
// measurements, so that every consumer (the structure, MQTT's hub-of-hubs
// format, Home Assistant discovery) names them from one place.
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
