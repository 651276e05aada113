package decode

import (
	"math"
	"strings"
	"testing"

	"github.com/climated/climated/sensors"
)

func TestConvert(t *testing.T) {
	cases := []struct {
		m    sensors.Measurement
		v    float64
		unit string
		want float64
		err  string
	}{
		{sensors.Temperature, 21.5, "", 21.5, ""},
		{sensors.Temperature, 212, "°F", 100, ""},
		{sensors.Temperature, 32, "F", 0, ""},
		{sensors.Temperature, 293.15, "K", 20, ""},
		{sensors.Temperature, 20, "degC", 20, ""},
		{sensors.Pressure, 760, "mmHg", 1013.25, ""},
		{sensors.Pressure, 29.92, "inHg", 1013.21, ""},
		{sensors.AbsolutePressure, 101325, "Pa", 1013.25, ""},
		{sensors.AbsolutePressure, 101.3, "kPa", 1013, ""},
		{sensors.Rain, 1, "in", 25.4, ""},
		{sensors.BatteryVoltage, 2.96, "V", 2960, ""},
		{sensors.RFStatus, -45, "dBm", 45, ""},
		{sensors.RFStatus, -72, "dBm", 72, ""},
		{sensors.RFStatus, -101, "dBm", 101, ""},
		{sensors.RFStatus, 0, "lqi", 90, ""},
		{sensors.RFStatus, 255, "lqi", 60, ""},
		{sensors.RFStatus, 51, "lqi", 84, ""},
		{sensors.RFStatus, 50, "%", 75, ""}, // −75 dBm
		{sensors.WiFiStatus, -40, "dBm", 40, ""},
		{sensors.WiFiStatus, -71, "dBm", 71, ""},
		{sensors.RFStatus, 300, "lqi", 0, "link quality 300"},
		{sensors.RFStatus, 5, "dBm", 0, "want a negative level"},
		{sensors.Humidity, 50, "°F", 0, `unknown unit "°F" for Humidity`},
		{sensors.CO2, 400, "mg/m3", 0, "unknown unit"},
	}
	for _, c := range cases {
		got, err := Convert(c.m, c.v, c.unit)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("Convert(%s, %v, %q) error %v, want %q", c.m, c.v, c.unit, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("Convert(%s, %v, %q): %v", c.m, c.v, c.unit, err)
		case c.err == "" && math.Abs(got-c.want) > 0.01:
			t.Errorf("Convert(%s, %v, %q) = %v, want %v", c.m, c.v, c.unit, got, c.want)
		}
	}
}
