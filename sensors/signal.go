package sensors

import (
	"fmt"
	"math"
)

// Netatmo's radio scales: lower is better. They are signal levels without
// their sign, in dBm, and their marks are the levels Netatmo names:
//
//	wifi_status  56 good (−56 dBm)  71 average (−71 dBm)  86 bad (−86 dBm)
//	rf_status    60 full  70 high  80 medium  90 low
//
// A level past a mark reads past it (−48 dBm is 48, better than good;
// −92 dBm is 92, worse than bad), as Netatmo's own stations report it, so
// the same signal reads the same whatever its source: the hub's own Wi-Fi
// (/proc/net/wireless), a sensor's Wi-Fi or BLE RSSI over MQTT, a Tasmota
// quality in percent. Only a zigbee link quality, which is not a level,
// is mapped onto the marks (SignalFromLQI).
const (
	WiFiGood, WiFiAverage, WiFiBad  = 56.0, 71.0, 86.0
	RFFull, RFHigh, RFMedium, RFLow = 60.0, 70.0, 80.0, 90.0
	signalMaxStatus                 = 120.0 // the catalogue's maximum: −120 dBm, below any receiver's floor
	maxLQI                          = 255.0
)

// signalScale is the best and the worst mark of m's scale.
func signalScale(m Measurement) (best, worst float64, err error) {
	switch m {
	case WiFiStatus:
		return WiFiGood, WiFiBad, nil
	case RFStatus:
		return RFFull, RFLow, nil
	}
	return 0, 0, fmt.Errorf("%s is not a radio signal", m)
}

// SignalFromDBm is the status, on either Netatmo scale, of a signal level
// in dBm: its magnitude (−63 dBm → 63), at most 120. A level above 0 dBm
// is not a received level and is an error.
func SignalFromDBm(dBm float64) (float64, error) {
	if !(dBm <= 0) {
		return 0, fmt.Errorf("signal %g dBm: want a negative level", dBm)
	}
	return math.Min(-dBm, signalMaxStatus), nil
}

// SignalFromPercent is the status of a signal quality in percent as
// Tasmota (and most Wi-Fi tools) compute it from the level, quality =
// 2·(dBm + 100) clamped to 0…100: the level is taken back from it
// (100 % → −50 dBm → 50, 0 % → −100 dBm → 100).
func SignalFromPercent(pct float64) (float64, error) {
	if !(pct >= 0 && pct <= 100) {
		return 0, fmt.Errorf("signal quality %g %%: want 0…100", pct)
	}
	return SignalFromDBm(pct/2 - 100)
}

// SignalFromLQI is the status of a zigbee link quality (0–255) on m's
// scale. An LQI is not a level: it is spread linearly between the scale's
// worst and best marks (rf_status: 0 → 90, 255 → 60).
func SignalFromLQI(m Measurement, lqi float64) (float64, error) {
	best, worst, err := signalScale(m)
	if err != nil {
		return 0, err
	}
	if !(lqi >= 0 && lqi <= maxLQI) {
		return 0, fmt.Errorf("link quality %g: want 0…255", lqi)
	}
	return worst - (worst-best)*lqi/maxLQI, nil
}
