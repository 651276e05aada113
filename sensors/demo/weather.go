package demo

import (
	"math"
	"time"
)

// The outdoor climate: a temperate northern-hemisphere place, roughly
// central Europe (the Balcony, the pressure and the rain).
//
// Outdoor temperature = seasonal mean + weather drift + daily cycle + noise:
//   - seasonal mean 10 ± 9 °C, coldest on 19 January, warmest on 20 July;
//   - drift ±2.5 °C over 4-day periods plus ±1 °C from day to day;
//   - daily cycle: minimum at 05:30 and maximum at 15:00 local standard
//     time, joined by half cosines (a faster morning rise), with a half range
//     of 2.5 °C in midwinter to 5.5 °C in midsummer, times 0.7…1.2 for cloudy
//     or clear days;
//   - noise ±0.15 °C over 15 minutes.
//
// The dew point follows the day's mean temperature (mean minus 2…5 °C), not
// the daily cycle, so relative humidity (Magnus formula) falls as the
// afternoon warms the air; outdoor humidity is clamped to 40…95 %.
//
// Sea-level pressure = 1013 hPa ± 12 hPa over 60-hour periods (weather
// systems) ± 5 hPa over 10-hour periods (fronts) + a 0.5 hPa semidiurnal tide,
// so it stays within about 996…1031 hPa. AbsolutePressure is the pressure at
// the station, 120 m above sea level, by the barometric formula of the
// International Standard Atmosphere:
//
//	p_station = p_sea · (1 − 0.0065·h/288.15)^5.2559 = 0.98585 · p_sea at h = 120 m
//
// which is about 14.3 hPa less.
//
// Rain: each hour has a shower with a chance of 14 % at 1010 hPa, 1.5 % more
// per hPa below that and less above it (clamped to 0…50 %), so wet spells
// come with low pressure; over a year about 9…11 % of the hours are wet. A
// shower lasts 5 to 20 minutes within its hour, swells and ebbs, and brings
// 0.1…3 mm per 5 minutes with heavy showers rare (roughly 650…950 mm a year).
// The gauge reports the rain of the 5 minutes ending at each multiple of
// RainInterval, at a resolution of 0.1 mm.
const (
	seasonMean      = 10.0     // °C, annual mean outdoor temperature
	seasonSwing     = 9.0      // °C, the seasonal mean is seasonMean ± seasonSwing
	coldestDay      = 18.0     // day of the year (0 = 1 January) with the coldest mean
	daysPerYear     = 365.2425 // length of the seasonal cycle in days
	driftSlow       = 2.5      // °C, weather drift over 4-day periods
	driftDaily      = 1.0      // °C, weather drift from day to day
	dayHalfWinter   = 2.5      // °C, half the daily range in midwinter (before the day's factor)
	dayHalfSummer   = 5.5      // °C, half the daily range in midsummer (before the day's factor)
	tempMinHour     = 5.5      // local standard time of the daily minimum
	tempMaxHour     = 15.0     // local standard time of the daily maximum
	tempJitter      = 0.15     // °C, short-term noise over 15 minutes
	dewSpreadMin    = 2.0      // °C, least distance of the dew point below the daily mean
	dewSpreadRange  = 3.0      // °C, further spread, varying over 2 days
	outdoorHumMin   = 40.0     // %, outdoor relative humidity is clamped to
	outdoorHumMax   = 95.0     // %, … this range
	pressureMean    = 1013.0   // hPa, mean sea-level pressure
	pressureSlow    = 12.0     // hPa, swing of weather systems (60-hour periods)
	pressureFast    = 5.0      // hPa, swing of fronts (10-hour periods)
	pressureTide    = 0.5      // hPa, semidiurnal atmospheric tide, highs at 10:00 and 22:00
	altitude        = 120.0    // m, height of the station above sea level
	showerChance    = 0.14     // chance that an hour has a shower at showerPressure
	showerPressure  = 1010.0   // hPa
	showerPerHPa    = 0.015    // extra chance per hPa below showerPressure (less above it)
	showerChanceMax = 0.50     // the chance is clamped to [0, showerChanceMax]
	rainMax         = 3.0      // mm per 5 minutes in the heaviest showers
	rainResolution  = 0.1      // mm, the gauge's resolution
)

// season is the seasonal mean outdoor temperature, coldest around 19 January
// and warmest around 20 July.
func season(in instant) float64 {
	return seasonMean - seasonSwing*math.Cos(2*math.Pi*(in.yearDay-coldestDay)/daysPerYear)
}

// summer is 0 in midwinter and 1 in midsummer.
func summer(in instant) float64 {
	return (1 - math.Cos(2*math.Pi*(in.yearDay-coldestDay)/daysPerYear)) / 2
}

// outdoorMean is the mean outdoor temperature of the day around in: the
// seasonal mean plus the weather's slow drift.
func (h *House) outdoorMean(in instant) float64 {
	return season(in) +
		driftSlow*h.smooth(sTempSlow, in.t, 4*24*time.Hour) +
		driftDaily*h.smooth(sTempDay, in.t, 24*time.Hour)
}

// dailyShape is the daily temperature cycle in [-1, 1]: -1 at tempMinHour,
// +1 at tempMaxHour, half cosines in between, so the morning rise is faster
// than the evening fall.
func dailyShape(solar float64) float64 {
	rise := tempMaxHour - tempMinHour
	if d := solar - tempMinHour; d >= 0 && d < rise {
		return -math.Cos(math.Pi * d / rise)
	}
	return math.Cos(math.Pi * mod24(solar-tempMaxHour) / (24 - rise))
}

// outdoorTemp is the air temperature on the balcony in °C.
func (h *House) outdoorTemp(in instant) float64 {
	half := (dayHalfWinter + (dayHalfSummer-dayHalfWinter)*summer(in)) *
		(0.7 + 0.5*h.smooth01(sTempAmp, in.t, 24*time.Hour)) // cloudy or clear days
	return h.outdoorMean(in) + half*dailyShape(in.solar) +
		tempJitter*h.smooth(sTempJitter, in.t, 15*time.Minute)
}

// dewPoint is the outdoor dew point in °C: it follows the day's mean
// temperature, not the daily cycle, which is why relative humidity falls
// when the afternoon warms the air.
func (h *House) dewPoint(in instant) float64 {
	return h.outdoorMean(in) - dewSpreadMin - dewSpreadRange*h.smooth01(sDewSpread, in.t, 48*time.Hour)
}

// saturation is the saturation vapour pressure over water in hPa at temp °C
// (Magnus formula, WMO coefficients).
func saturation(temp float64) float64 {
	return 6.112 * math.Exp(17.62*temp/(243.12+temp))
}

// relHumidity is the relative humidity in % of air at temp °C with the given
// dew point.
func relHumidity(dew, temp float64) float64 {
	return 100 * saturation(dew) / saturation(temp)
}

// outdoorHumidity is the relative humidity on the balcony in %.
func (h *House) outdoorHumidity(in instant, temp float64) float64 {
	rh := relHumidity(h.dewPoint(in), temp) + 1.5*h.smooth(sHumJitter, in.t, 30*time.Minute)
	return clamp(rh, outdoorHumMin, outdoorHumMax)
}

// seaLevelPressure is the pressure reduced to sea level in hPa.
func (h *House) seaLevelPressure(in instant) float64 {
	return pressureMean +
		pressureSlow*h.smooth(sPressSlow, in.t, 60*time.Hour) +
		pressureFast*h.smooth(sPressFast, in.t, 10*time.Hour) +
		pressureTide*math.Cos(2*math.Pi*(in.solar-10)/12)
}

// stationFactor is the ratio of station pressure to sea-level pressure at
// altitude in the International Standard Atmosphere (barometric formula for
// the troposphere): p = p₀ · (1 − L·h/T₀)^(g·M/(R·L)), with lapse rate
// L = 0.0065 K/m, T₀ = 288.15 K, g = 9.80665 m/s², M = 0.0289644 kg/mol and
// R = 8.3144598 J/(mol·K). At 120 m it is 0.98585: 14.3 hPa less at 1013.25 hPa.
var stationFactor = math.Pow(1-0.0065*altitude/288.15, 9.80665*0.0289644/(8.3144598*0.0065))

// rain is the rain in mm that fell in the 5-minute interval ending at end,
// which must be a multiple of RainInterval. Every hour has a shower with a
// chance that rises as the pressure falls; a shower lasts 5 to 20 minutes
// within its hour, its intensity swells and ebbs, and heavy showers are rare.
func (h *House) rain(end time.Time) float64 {
	start := end.Add(-RainInterval).Unix()
	hour := floorDiv(start, 3600)
	slot := (start - hour*3600) / int64(RainInterval/time.Second) // 0 … 11 within the hour
	p := h.seaLevelPressure(h.instant(time.Unix(hour*3600, 0)))
	chance := clamp(showerChance+showerPerHPa*(showerPressure-p), 0, showerChanceMax)
	if h.unit(sShower, hour) >= chance {
		return 0
	}
	first := int64(h.unit(sShowerStart, hour) * 11) // 0 … 10
	slots := 1 + int64(h.unit(sShowerLen, hour)*4)  // 1 … 4; a shower ends with its hour
	if slot < first || slot >= first+slots {
		return 0
	}
	u := h.unit(sShowerPeak, hour)
	peak := rainResolution + (rainMax-rainResolution)*math.Pow(u, 6)
	swell := math.Sin(math.Pi * (float64(slot-first) + 0.5) / float64(slots))
	mm := peak * swell * (0.8 + 0.4*h.unit(sRainJitter, start))
	return clamp(math.Round(mm/rainResolution)*rainResolution, rainResolution, rainMax)
}
