package demo

import (
	"math"
	"time"

	"github.com/climated/climated/sensors"
)

// The devices' health.
//
// A module runs on four alkaline cells whose charge falls linearly from
// 100 % to 50 % over the battery's life (Bedroom 540 days, Balcony 365,
// Rain 450), then the battery is replaced; the seed decides where in that
// cycle each module is. As the catalogue's battery model says
// (sensors/battery.go), battery_vp is the pack's voltage on the alkaline
// discharge curve (6200 mV fresh, about 5100 mV at 50 %) and
// battery_percent is what the module derives from that voltage with the
// same curve, sensors.Alkaline.Percent; no voltage is derived from a
// percentage. rf_status is about 58…64 (Bedroom), 64…72 (Balcony) and
// 66…74 (Rain) with ±4 of noise, within 55…80; wifi_status is about 53…58
// ± 3, within 50…65 (on Netatmo's scales lower is better).
const (
	batteryFull  = 100.0 // % of the charge left in a fresh battery
	batteryEmpty = 50.0  // %, the charge at which the demo's batteries are replaced
	cells        = 4     // alkaline cells in series in a module
	rfBest       = 55.0  // rf_status is clamped to this range (lower is better)
	rfWorst      = 80.0
	wifiBest     = 50.0 // wifi_status is clamped to this range (lower is better)
	wifiWorst    = 65.0
)

// module is a wireless module of the station.
type module struct {
	index    int64   // distinguishes the modules' noise
	lifeDays float64 // days a battery takes from full to empty
	rfBase   float64 // typical rf_status
	rfSpread float64 // rf_status varies by up to this much per seed
}

// stream is the module's own copy of a noise stream.
func (mod module) stream(s stream) stream { return stream(mod.index<<8) + s }

// modules are the station's wireless modules by zone.
var modules = map[string]module{
	zoneBedroom: {index: 1, lifeDays: 540, rfBase: 58, rfSpread: 6},
	zoneBalcony: {index: 2, lifeDays: 365, rfBase: 64, rfSpread: 8}, // the cold drains it faster
	zoneRain:    {index: 3, lifeDays: 450, rfBase: 66, rfSpread: 8},
}

// charge is the charge left in mod's battery in %: it falls linearly from
// batteryFull to batteryEmpty over the module's life, then the battery is
// replaced. Where in that cycle a module is depends on the seed.
func (h *House) charge(mod module, t time.Time) float64 {
	days := float64(t.Unix()) / 86400
	cycle := days/mod.lifeDays + h.unit(mod.stream(sBattery), 0)
	_, used := math.Modf(cycle)
	if used < 0 {
		used++
	}
	return batteryFull - (batteryFull-batteryEmpty)*used
}

// battery is what mod reports of its battery, as the catalogue's battery
// model says (sensors/battery.go): the pack's voltage, which the charge
// left sets through the alkaline discharge curve, and the level the module
// derives from that voltage with the same curve. The voltage is the
// measurement; the level is never the source of the voltage.
func (h *House) battery(mod module, t time.Time) (mV, pc float64) {
	mV = sensors.Alkaline.Voltage(h.charge(mod, t), cells)
	return mV, sensors.Alkaline.Percent(mV, cells)
}

// rf is the radio signal of mod on Netatmo's scale (lower is better).
func (h *House) rf(mod module, t time.Time) float64 {
	base := mod.rfBase + mod.rfSpread*h.unit(mod.stream(sRFBase), 0)
	v := base + 3*h.smooth(mod.stream(sRFJitter), t, 10*time.Minute) +
		h.signed(mod.stream(sRFFlicker), floorDiv(t.Unix(), 60))
	return clamp(v, rfBest, rfWorst)
}

// wifi is the main station's Wi-Fi signal on Netatmo's scale (lower is better).
func (h *House) wifi(t time.Time) float64 {
	v := 53 + 5*h.unit(sWiFiBase, 0) + 3*h.smooth(sWiFiJitter, t, 10*time.Minute)
	return clamp(v, wifiBest, wifiWorst)
}
