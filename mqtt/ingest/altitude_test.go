package ingest

import (
	"math"
	"testing"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/hw"
)

// The sea-level Pressure of a device that reports the station's is
// derived from the configured altitude exactly as for the hub's own
// sensors; a device that sends its own sea-level pressure keeps it.
func TestPressureFromAltitude(t *testing.T) {
	aqara := upstream(t, "zigbee2mqtt", "aqara_weather_pressure")
	bmp := upstream(t, "tasmota", "bme280_mmhg")
	in := newTestIngest(t, Options{Altitude: 120},
		Mapping{Topic: "zigbee2mqtt/+", Format: "zigbee2mqtt", Zone: "Bathroom"},
		Mapping{Topic: "tele/+/+", Format: "tasmota", Zone: "Cabinet"})
	sink := &recSink{}
	feed(t, in, sink, aqara.msg(), bmp.msg())
	for zone, station := range map[string]float64{"Bathroom": 1001.8, "Cabinet": 754.2 * 1.33322387415} {
		p := sink.raw(zone, sensors.Pressure)
		if len(p) != 1 || math.Abs(p[0]-hw.SeaLevelPressure(station, 120)) > 1e-9 {
			t.Errorf("%s: Pressure %v, want %v as the hub's sensors derive it", zone, p, hw.SeaLevelPressure(station, 120))
		}
	}
}
