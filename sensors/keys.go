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

	// The day's strongest gust since local midnight (Netatmo's keys).
	KeyMaxWindStr     = "max_wind_str"
	KeyMaxWindAngle   = "max_wind_angle"
	KeyDateMaxWindStr = "date_max_wind_str"
	// Strikes over the last hour and day, as the rain's sums.
	KeySumLightning1  = "sum_lightning_1"
	KeySumLightning24 = "sum_lightning_24"
	// What the air feels like where there is wind, as weewx derives it
	// (sensors/weather), in °C; each only where it applies.
	KeyFeelsLike = "feels_like"
	KeyHeatIndex = "heat_index"
	KeyWindChill = "wind_chill"
	KeyHumidex   = "humidex"
	KeyDewPoint  = "dew_point"
)

// TimeKeys are the keys whose values are Unix times.
var TimeKeys = []string{KeyWhen, KeyDateMinTemp, KeyDateMaxTemp, KeyDateMaxWindStr}
