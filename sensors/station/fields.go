package station

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/climated/climated/sensors"
)

// unit is how a field's value becomes the catalogue's.
type unit int

const (
	asSent     unit = iota
	fahrenheit      // °F → °C
	inHg            // inHg → hPa
	inches          // in (or in/h) → mm (mm/h)
	mph             // mph → km/h
	volts           // a battery's voltage, V → mV
	level           // Ecowitt's battery level 0–5 → % (6: on mains, no level)
	lowFlag         // a battery flag: Ecowitt's 0 ok, 1 low; Ambient's 1 ok, 0 low
)

// spec is what a field is: the part it belongs to (%d: its channel), the
// measurement and unit, the range a reading may have once converted (lo
// == hi: none), or the rain counter it is.
type spec struct {
	part    string
	m       sensors.Measurement
	unit    unit
	lo, hi  float64
	counter string
	piezo   bool
	strikes bool
}

func reading(part string, m sensors.Measurement, u unit, lo, hi float64) spec {
	return spec{part: part, m: m, unit: u, lo: lo, hi: hi}
}

func counter(name string, piezo bool) spec {
	return spec{part: "outdoor", unit: inches, counter: name, piezo: piezo}
}

// strikes is the lightning sensor's count of the day's strikes: a
// counter, as the rain's are.
func strikes() spec {
	return spec{part: "lightning", unit: asSent, counter: "daily", strikes: true}
}

func battery(part string, u unit) spec {
	m := sensors.BatteryPercent
	if u == volts {
		m = sensors.BatteryVoltage
	}
	return spec{part: part, m: m, unit: u}
}

// Ranges of what a reading may be, in the catalogue's units.
var (
	tRange   = [2]float64{-60, 70} // °C
	rhRange  = [2]float64{0, 100}
	hPaRange = [2]float64{500, 1100}
)

// ecowittFields are the Ecowitt protocol's fields (Ecowitt's "customized"
// upload, as ecowitt2mqtt and aioecowitt read it); N is a channel number.
// Two are left unread on purpose: maxdailygust, as the hub derives the
// day's strongest gust from the gusts (max_wind_str, since its own
// midnight), and lightning_time, as the distance is recorded when the
// count of strikes rises, at that upload.
var ecowittFields = map[string]spec{
	"tempinf":    reading("console", sensors.Temperature, fahrenheit, tRange[0], tRange[1]),
	"humidityin": reading("console", sensors.Humidity, asSent, rhRange[0], rhRange[1]),
	"baromrelin": reading("console", sensors.Pressure, inHg, hPaRange[0], hPaRange[1]),
	"baromabsin": reading("console", sensors.AbsolutePressure, inHg, hPaRange[0], hPaRange[1]),
	"tempf":      reading("outdoor", sensors.Temperature, fahrenheit, tRange[0], tRange[1]),
	"humidity":   reading("outdoor", sensors.Humidity, asSent, rhRange[0], rhRange[1]),

	"winddir":        reading("outdoor", sensors.WindAngle, asSent, 0, 360),
	"windspeedmph":   reading("outdoor", sensors.WindStrength, mph, 0, 400),
	"windgustmph":    reading("outdoor", sensors.GustStrength, mph, 0, 400),
	"solarradiation": reading("outdoor", sensors.SolarRadiation, asSent, 0, 2000),
	"uv":             reading("outdoor", sensors.UV, asSent, 0, 25),
	"rainratein":     reading("outdoor", sensors.RainRate, inches, 0, 2000),
	"rrain_piezo":    reading("piezo", sensors.RainRate, inches, 0, 2000),

	"eventrainin": counter("event", false), "hourlyrainin": counter("hourly", false),
	"dailyrainin": counter("daily", false), "weeklyrainin": counter("weekly", false),
	"monthlyrainin": counter("monthly", false), "yearlyrainin": counter("yearly", false),
	"totalrainin": counter("total", false),
	"erain_piezo": counter("event", true), "hrain_piezo": counter("hourly", true),
	"drain_piezo": counter("daily", true), "wrain_piezo": counter("weekly", true),
	"mrain_piezo": counter("monthly", true), "yrain_piezo": counter("yearly", true),

	"tempNf":          reading("channel%d", sensors.Temperature, fahrenheit, tRange[0], tRange[1]),
	"humidityN":       reading("channel%d", sensors.Humidity, asSent, rhRange[0], rhRange[1]),
	"battN":           battery("channel%d", lowFlag),
	"soilmoistureN":   reading("soil%d", sensors.SoilMoisture, asSent, 0, 100),
	"soilbattN":       battery("soil%d", volts),
	"leafwetness_chN": reading("leaf%d", sensors.LeafWetness, asSent, 0, 100),
	"leaf_battN":      battery("leaf%d", volts),
	"leak_chN":        reading("leak%d", sensors.Leak, asSent, 0, 1),
	"leakbattN":       battery("leak%d", level),
	"pm25_chN":        reading("pm25_%d", sensors.PM25, asSent, 0, 1000),
	"pm25battN":       battery("pm25_%d", level),
	// The WN34 temperature probes (soil, water), channels 1–8: °F in
	// tf_chN, °C in tf_chNc (aioecowitt's sensor.py reads both).
	"tf_chN":   reading("probe%d", sensors.Temperature, fahrenheit, tRange[0], tRange[1]),
	"tf_chNc":  reading("probe%d", sensors.Temperature, asSent, tRange[0], tRange[1]),
	"tf_battN": battery("probe%d", volts),

	"tf_co2":    reading("co2", sensors.Temperature, fahrenheit, tRange[0], tRange[1]),
	"humi_co2":  reading("co2", sensors.Humidity, asSent, rhRange[0], rhRange[1]),
	"pm25_co2":  reading("co2", sensors.PM25, asSent, 0, 1000),
	"pm10_co2":  reading("co2", sensors.PM10, asSent, 0, 1000),
	"co2":       reading("co2", sensors.CO2, asSent, 0, 40000),
	"co2_batt":  battery("co2", level),
	"batt_co2":  battery("co2", lowFlag),
	"lightning": reading("lightning", sensors.LightningDistance, asSent, 0, 100),

	"lightning_num": strikes(),
	"wh57batt":      battery("lightning", level),
	"wh25batt":      battery("console", lowFlag),
	"wh26batt":      battery("outdoor", lowFlag),
	"wh32batt":      battery("outdoor", lowFlag),
	"wh65batt":      battery("outdoor", lowFlag),
	"wh40batt":      battery("outdoor", volts),
	"wh68batt":      battery("outdoor", volts),
	"wh80batt":      battery("outdoor", volts),
	"wh90batt":      battery("outdoor", volts),
	"battout":       battery("outdoor", lowFlag),
	"battin":        battery("console", lowFlag),
	"console_batt":  battery("console", volts), // a console's own battery (GW2000's backup cells)
}

// unreadFields are fields a station sends that the hub reads nothing
// from, on purpose: who sent the upload and when, the gateway's own
// state, and values the hub derives itself. Any other field it has no
// spec for is logged, once per station, as one it does not know.
var unreadFields = map[string]bool{
	"PASSKEY": true, "stationtype": true, "model": true, "dateutc": true, "freq": true,
	"runtime": true, "heap": true, "interval": true, "ws90_ver": true,
	"ws90cap_volt": true,                         // the WS90's supercapacitor, charged by its solar panel: not a battery
	"maxdailygust": true, "lightning_time": true, // see ecowittFields
	"soiladN": true, // a soil probe's raw AD value, beside its percentage
	// The gateway's 24-hour averages (the hub has the history to average)
	// and the piezo gauge's calibration gains (settings, not readings).
	"co2_24h": true, "pm25_24h_co2": true, "pm10_24h_co2": true, "pm25_avg_24h_chN": true,
	"gain10_piezo": true, "gain20_piezo": true, "gain30_piezo": true, "gain40_piezo": true, "gain50_piezo": true,
	// Weather Underground: the upload's own fields, and what the hub
	// derives (dew point, wind chill) or cannot count (rainin, the last
	// hour's rain).
	"ID": true, "PASSWORD": true, "action": true, "softwaretype": true, "realtime": true, "rtfreq": true,
	"dewptf": true, "windchillf": true, "rainin": true,
}

// wundergroundFields are the Weather Underground protocol's fields
// (support.weather.com's "PWS Upload Protocol"): sea-level pressure in
// baromin, the day's and longer rain as counters. rainin, the last
// hour's rain, is neither a counter nor a rate, and is not read.
var wundergroundFields = map[string]spec{
	"indoortempf":    reading("console", sensors.Temperature, fahrenheit, tRange[0], tRange[1]),
	"indoorhumidity": reading("console", sensors.Humidity, asSent, rhRange[0], rhRange[1]),
	"baromin":        reading("console", sensors.Pressure, inHg, hPaRange[0], hPaRange[1]),
	"absbaromin":     reading("console", sensors.AbsolutePressure, inHg, hPaRange[0], hPaRange[1]),
	"tempf":          reading("outdoor", sensors.Temperature, fahrenheit, tRange[0], tRange[1]),
	"humidity":       reading("outdoor", sensors.Humidity, asSent, rhRange[0], rhRange[1]),
	"winddir":        reading("outdoor", sensors.WindAngle, asSent, 0, 360),
	"windspeedmph":   reading("outdoor", sensors.WindStrength, mph, 0, 400),
	"windgustmph":    reading("outdoor", sensors.GustStrength, mph, 0, 400),
	"windgustdir":    reading("outdoor", sensors.GustAngle, asSent, 0, 360),
	"solarradiation": reading("outdoor", sensors.SolarRadiation, asSent, 0, 2000),
	"UV":             reading("outdoor", sensors.UV, asSent, 0, 25),
	"dailyrainin":    counter("daily", false),
	"weeklyrainin":   counter("weekly", false),
	"monthlyrainin":  counter("monthly", false),
	"yearlyrainin":   counter("yearly", false),
	"lowbatt":        battery("outdoor", lowFlag),
}

// lookupSpec finds key's spec: by name, else with its last run of digits
// as N (temp3f is tempNf, channel 3), channels 1 to 16.
func lookupSpec(specs map[string]spec, key string) (spec, int, bool) {
	if s, ok := specs[key]; ok {
		return s, 0, true
	}
	pattern, n, ok := channelPattern(key)
	if !ok {
		return spec{}, 0, false
	}
	s, ok := specs[pattern]
	return s, n, ok
}

// channelPattern is key with its last run of digits as N, and the
// channel they number (1 to 16).
func channelPattern(key string) (string, int, bool) {
	end := strings.LastIndexAny(key, "0123456789") + 1
	start := end
	for start > 0 && key[start-1] >= '0' && key[start-1] <= '9' {
		start--
	}
	if end == 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(key[start:end])
	if err != nil || n < 1 || n > 16 {
		return "", 0, false
	}
	return key[:start] + "N" + key[end:], n, true
}

// unread reports whether key is a field the hub leaves unread on purpose.
func unread(key string) bool {
	if unreadFields[key] {
		return true
	}
	pattern, _, ok := channelPattern(key)
	return ok && unreadFields[pattern]
}

// field decodes one field into parts or the counters, or notes its problem.
func (u *Upload) field(parts map[string]map[sensors.Measurement]float64, s spec, n int, key, raw string, o Options, ambient bool) {
	if raw == "" {
		return // a sensor the gateway knows but has not heard (lightning_time before a strike)
	}
	v, err := strconv.ParseFloat(raw, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		u.Problems = append(u.Problems, Problem{key, fmt.Errorf("%q is not a number", raw)})
		return
	}
	v, keep := convert(v, s.unit, o, ambient)
	if !keep {
		return
	}
	if math.IsInf(v, 0) {
		u.Problems = append(u.Problems, Problem{key, fmt.Errorf("%s is too large", raw)})
		return
	}
	if s.lo != s.hi && (v < s.lo || v > s.hi) {
		u.Problems = append(u.Problems, Problem{key, fmt.Errorf("%s gives %.4g, outside %g…%g", raw, v, s.lo, s.hi)})
		return
	}
	if s.counter != "" {
		if v < 0 {
			u.Problems = append(u.Problems, Problem{key, fmt.Errorf("a rain total of %s is below 0", raw)})
			return
		}
		u.Counters = append(u.Counters, Counter{s.counter, s.piezo, s.strikes, v})
		return
	}
	part := s.part
	if strings.Contains(part, "%d") {
		part = fmt.Sprintf(part, n)
	}
	if parts[part] == nil {
		parts[part] = map[sensors.Measurement]float64{}
	}
	parts[part][s.m] = v
}

// convert turns v in u into the catalogue's unit; false when it says
// nothing (a battery on mains).
func convert(v float64, u unit, o Options, ambient bool) (float64, bool) {
	switch {
	case u == volts:
		return v * 1000, true
	case u == level:
		return v * 20, v <= 5
	case u == lowFlag && ambient:
		return map[bool]float64{true: 100, false: 0}[v == 1], true
	case u == lowFlag:
		return map[bool]float64{true: 100, false: 0}[v == 0], true
	case o.Metric:
		return v, true
	case u == fahrenheit:
		return catalogue(sensors.Temperature, v, "°F"), true
	case u == inHg:
		return catalogue(sensors.Pressure, v, "inHg"), true
	case u == inches:
		return catalogue(sensors.Rain, v, "in"), true
	case u == mph:
		return catalogue(sensors.WindStrength, v, "mph"), true
	}
	return v, true
}

// catalogue is v in unit converted by the catalogue's own conversion of
// m, whose units always include unit.
func catalogue(m sensors.Measurement, v float64, unit string) float64 {
	c, err := m.Convert(v, unit)
	if err != nil {
		panic(fmt.Sprintf("station: the catalogue converts %s from %s no more: %v", m, unit, err))
	}
	return c
}
