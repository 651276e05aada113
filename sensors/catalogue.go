package sensors

// entries is the catalogue: one entry per measurement, in the order the
// get_climate description presents them.
var entries = []Info{
	{
		Name: Temperature, Unit: "°C", Units: temperatureUnits, Kind: Gauge, Decimals: 1, Min: -60, Max: 85, Resolution: 0.001,
		Description: "air temperature",
		Brief:       "°C",
		HA:          HomeAssistant{Name: "Temperature", DeviceClass: "temperature", StateClass: "measurement"},
	},
	{
		Name: Humidity, Unit: "%", Units: percentUnits, Kind: Gauge, Decimals: 0, Min: 0, Max: 100, Resolution: 0.01,
		Description: "relative humidity",
		Brief:       "%",
		HA:          HomeAssistant{Name: "Humidity", DeviceClass: "humidity", StateClass: "measurement"},
	},
	{
		Name: CO2, Unit: "ppm", Units: ppmUnits, Kind: Gauge, Decimals: 0, Min: 0, Max: 10000, Resolution: 0.1,
		Description: "carbon dioxide concentration",
		Brief:       "ppm (below 800 fresh, above 1400 stale air)",
		HA:          HomeAssistant{Name: "CO2", DeviceClass: "carbon_dioxide", StateClass: "measurement"},
	},
	{
		Name: Noise, Unit: "dB", Units: decibelUnits, Kind: Gauge, Decimals: 0, Min: 0, Max: 140, Resolution: 0.01,
		Description: "sound level",
		Brief:       "dB",
		HA:          HomeAssistant{Name: "Noise", DeviceClass: "sound_pressure", StateClass: "measurement"},
	},
	{
		Name: Pressure, Unit: "hPa", Units: pressureUnits, Kind: Gauge, Decimals: 1, Min: 800, Max: 1100, Resolution: 0.001,
		Description: "pressure reduced to sea level",
		Brief:       "sea-level hPa",
		HA:          HomeAssistant{Name: "Sea-level pressure", DeviceClass: "atmospheric_pressure", StateClass: "measurement"},
	},
	{
		Name: AbsolutePressure, Unit: "hPa", Units: pressureUnits, Kind: Gauge, Decimals: 1, Min: 300, Max: 1100, Resolution: 0.001,
		Description: "pressure at the station",
		Brief:       "station hPa",
		HA:          HomeAssistant{Name: "Station pressure", DeviceClass: "atmospheric_pressure", StateClass: "measurement"},
	},
	// Rain keeps three decimals, the resolution of the gauges: a tip of
	// 0.2794 mm (the usual tipping bucket) reads 0.279, not 0.3, and
	// Netatmo's gauge reports 0.101 mm steps to the thousandth. It is
	// stored to the ten-thousandth, so that a 0.2794 mm tip is exact.
	{
		Name: Rain, Unit: "mm", Units: rainUnits, Kind: Amount, Decimals: 3, Min: 0, Max: 500, Resolution: 0.0001,
		Description: "rain fallen in the latest interval",
		Brief:       "mm in the latest interval",
		HA:          HomeAssistant{Name: "Rain, latest interval", DeviceClass: "precipitation", StateClass: "measurement"},
	},
	// The weather station's (sensors/station). Wind is Netatmo's: km/h,
	// and the direction the wind comes from in degrees clockwise from
	// north, averaged as vectors (Direction).
	{
		Name: WindStrength, Unit: "km/h", Units: speedUnits, Kind: Gauge, Decimals: 0, Min: 0, Max: 400, Resolution: 0.01,
		Description: "wind speed, the mean over the station's interval",
		Brief:       "km/h: the interval's mean wind and strongest gust",
		HA:          HomeAssistant{Name: "Wind speed", DeviceClass: "wind_speed", StateClass: "measurement"},
	},
	{
		Name: GustStrength, Unit: "km/h", Units: speedUnits, Kind: Gauge, Decimals: 0, Min: 0, Max: 400, Resolution: 0.01,
		Description: "wind gust, the strongest of the station's interval",
		Brief:       "km/h: the interval's mean wind and strongest gust",
		HA:          HomeAssistant{Name: "Wind gust", DeviceClass: "wind_speed", StateClass: "measurement"},
	},
	{
		Name: WindAngle, Unit: "°", Units: angleUnits, Kind: Direction, Decimals: 0, Min: 0, Max: 360, Resolution: 0.01,
		Description: "direction the wind comes from, degrees clockwise from north (90 east); means are of its unit vectors",
		Brief:       "° the wind comes from (0 north, 90 east)",
		HA:          HomeAssistant{Name: "Wind direction", DeviceClass: "wind_direction", StateClass: "measurement_angle"},
	},
	{
		Name: GustAngle, Unit: "°", Units: angleUnits, Kind: Direction, Decimals: 0, Min: 0, Max: 360, Resolution: 0.01,
		Description: "direction of the strongest gust, degrees clockwise from north",
		Brief:       "° the wind comes from (0 north, 90 east)",
		HA:          HomeAssistant{Name: "Gust direction", DeviceClass: "wind_direction", StateClass: "measurement_angle"},
	},
	{
		Name: SolarRadiation, Unit: "W/m²", Units: irradianceUnits, Kind: Gauge, Decimals: 0, Min: 0, Max: 2000, Resolution: 0.01,
		Description: "solar radiation, global irradiance on a horizontal surface",
		Brief:       "W/m²",
		HA:          HomeAssistant{Name: "Solar radiation", DeviceClass: "irradiance", StateClass: "measurement"},
	},
	{
		// Home Assistant has no device class for the UV index.
		Name: UV, Unit: "", Units: indexUnits, Kind: Gauge, Decimals: 0, Min: 0, Max: 25, Resolution: 0.01,
		Description: "UV index (WHO: 0–2 low, 3–5 moderate, 6–7 high, 8–10 very high, 11+ extreme)",
		Brief:       "UV index (WHO: 3 moderate, 6 high, 8 very high, 11 extreme)",
		HA:          HomeAssistant{Name: "UV index", StateClass: "measurement", Icon: "mdi:sun-wireless"},
	},
	{
		Name: RainRate, Unit: "mm/h", Units: rateUnits, Kind: Gauge, Decimals: 1, Min: 0, Max: 2000, Resolution: 0.001,
		Description: "rain intensity: how fast it rains now",
		Brief:       "mm/h, how fast it rains now",
		HA:          HomeAssistant{Name: "Rain rate", DeviceClass: "precipitation_intensity", StateClass: "measurement"},
	},
	{
		Name: SoilMoisture, Unit: "%", Units: percentUnits, Kind: Gauge, Decimals: 0, Min: 0, Max: 100, Resolution: 0.01,
		Description: "soil moisture, volumetric water content",
		Brief:       "%",
		HA:          HomeAssistant{Name: "Soil moisture", DeviceClass: "moisture", StateClass: "measurement"},
	},
	{
		Name: LeafWetness, Unit: "%", Units: percentUnits, Kind: Gauge, Decimals: 0, Min: 0, Max: 100, Resolution: 0.01,
		Description: "leaf wetness: how much of the sensor's surface is wet",
		Brief:       "%",
		HA:          HomeAssistant{Name: "Leaf wetness", StateClass: "measurement", Icon: "mdi:leaf"},
	},
	{
		Name: Leak, Unit: "", Units: stateUnits, Kind: Gauge, Decimals: 0, Min: 0, Max: 1, Resolution: 1,
		Description: "water leak sensor: 1 while it is wet, 0 dry",
		Brief:       "1 water detected, 0 dry",
		HA:          HomeAssistant{Name: "Leak", DeviceClass: "moisture", Binary: true},
	},
	{
		Name: Lightning, Unit: "", Units: countUnits, Kind: Amount, Decimals: 0, Min: 0, Max: 100000, Resolution: 1,
		Description: "lightning strikes detected in the latest interval",
		Brief:       "strikes in the latest interval",
		HA:          HomeAssistant{Name: "Lightning strikes, latest interval", StateClass: "measurement", Icon: "mdi:flash"},
	},
	{
		Name: LightningDistance, Unit: "km", Units: distanceUnits, Kind: Gauge, Decimals: 0, Min: 0, Max: 100, Resolution: 0.01,
		Description: "distance to the latest lightning strike, at its time",
		Brief:       "km to the latest strike, at its time",
		HA:          HomeAssistant{Name: "Lightning distance", DeviceClass: "distance", StateClass: "measurement"},
	},
	{
		Name: PM1, Unit: "µg/m³", Units: massConcentrationUnits, Kind: Gauge, Decimals: 1, Min: 0, Max: 1000, Resolution: 0.01,
		Description: "mass concentration of particles up to 1 µm (PM1)",
		Brief:       "µg/m³",
		HA:          HomeAssistant{Name: "PM1", DeviceClass: "pm1", StateClass: "measurement"},
	},
	{
		Name: PM25, Unit: "µg/m³", Units: massConcentrationUnits, Kind: Gauge, Decimals: 1, Min: 0, Max: 1000, Resolution: 0.01,
		Description: "mass concentration of particles up to 2.5 µm (PM2.5); WHO 2021 guideline: 15 µg/m³ as a 24-hour mean, 5 µg/m³ as an annual mean",
		Brief:       "µg/m³, PM2.5 (WHO 24-h guideline: 15)",
		HA:          HomeAssistant{Name: "PM2.5", DeviceClass: "pm25", StateClass: "measurement"},
	},
	{
		// Home Assistant has no device class for PM4.
		Name: PM4, Unit: "µg/m³", Units: massConcentrationUnits, Kind: Gauge, Decimals: 1, Min: 0, Max: 1000, Resolution: 0.01,
		Description: "mass concentration of particles up to 4 µm (PM4)",
		Brief:       "µg/m³",
		HA:          HomeAssistant{Name: "PM4", StateClass: "measurement", Icon: "mdi:blur"},
	},
	{
		Name: PM10, Unit: "µg/m³", Units: massConcentrationUnits, Kind: Gauge, Decimals: 1, Min: 0, Max: 1000, Resolution: 0.01,
		Description: "mass concentration of particles up to 10 µm (PM10); WHO 2021 guideline: 45 µg/m³ as a 24-hour mean",
		Brief:       "µg/m³ (WHO 24-h guideline: 45)",
		HA:          HomeAssistant{Name: "PM10", DeviceClass: "pm10", StateClass: "measurement"},
	},
	// Sensirion's gas indices come in tenths; Home Assistant has no device
	// class for either (its volatile_organic_compounds is a concentration).
	{
		Name: VOCIndex, Unit: "", Units: indexUnits, Kind: Gauge, Decimals: 0, Min: 1, Max: 500, Resolution: 0.1,
		Description: "Sensirion VOC index, 1…500: 100 is the room's average of the last 24 hours, above it more volatile organic compounds than usual (cooking, cleaning, paint), below fewer",
		Brief:       "index 1–500, 100 = the room's 24-h average, higher is worse",
		HA:          HomeAssistant{Name: "VOC index", StateClass: "measurement", Icon: "mdi:molecule"},
	},
	{
		Name: NOxIndex, Unit: "", Units: indexUnits, Kind: Gauge, Decimals: 0, Min: 1, Max: 500, Resolution: 0.1,
		Description: "Sensirion NOx index, 1…500: 1 is the room's usual clean air, above it nitrogen oxides from combustion (gas cooker, traffic)",
		Brief:       "index 1–500, 1 = the room's usual air, higher is worse",
		HA:          HomeAssistant{Name: "NOx index", StateClass: "measurement", Icon: "mdi:molecule"},
	},
	{
		Name: BatteryVoltage, Unit: "mV", Units: voltageUnits, Kind: Health, Decimals: 0, Min: 0, Max: 10000, Resolution: 1,
		Description: "battery voltage of a wireless sensor, as measured (never derived from a level; see sensors/battery.go)",
		Brief:       "mV, module battery",
		HA:          HomeAssistant{Name: "Battery voltage", DeviceClass: "voltage", StateClass: "measurement"},
	},
	{
		Name: BatteryPercent, Unit: "%", Units: percentUnits, Kind: Health, Decimals: 0, Min: 0, Max: 100, Resolution: 0.01,
		Description: "battery level of a wireless sensor, as the device reports it or from its voltage on its chemistry's discharge curve (see sensors/battery.go)",
		Brief:       "%, module battery",
		HA:          HomeAssistant{Name: "Battery", DeviceClass: "battery", StateClass: "measurement"},
	},
	{
		Name: RFStatus, Unit: "", Units: signalUnits(RFStatus), Kind: Health, Decimals: 0, Min: 0, Max: signalMaxStatus, Resolution: 0.01,
		Description: "radio signal of a wireless sensor, Netatmo scale: the level in dBm without its sign (lower is better: 90 low, 80 medium, 70 high, 60 full)",
		Brief:       "module radio, lower is better: 90 low, 80 medium, 70 high, 60 full",
		HA:          HomeAssistant{Name: "Radio signal (Netatmo scale, lower is better)", StateClass: "measurement", Icon: "mdi:signal"},
	},
	{
		Name: WiFiStatus, Unit: "", Units: signalUnits(WiFiStatus), Kind: Health, Decimals: 0, Min: 0, Max: signalMaxStatus, Resolution: 0.01,
		Description: "Wi-Fi signal, Netatmo scale: the level in dBm without its sign (lower is better: 86 bad, 71 average, 56 good)",
		Brief:       "hub Wi-Fi, same scale: 86 bad, 71 average, 56 good",
		HA:          HomeAssistant{Name: "Wi-Fi signal (Netatmo scale, lower is better)", StateClass: "measurement", Icon: "mdi:wifi"},
	},
}
