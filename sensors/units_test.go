package sensors

import (
	"math"
	"strings"
	"testing"
)

func TestConvert(t *testing.T) {
	cases := []struct {
		m    Measurement
		v    float64
		unit string
		want float64
		err  string
	}{
		{Temperature, 21.5, "", 21.5, ""},
		{Temperature, 212, "°F", 100, ""},
		{Temperature, 32, "F", 0, ""},
		{Temperature, 293.15, "K", 20, ""},
		{Temperature, 20, "degC", 20, ""},
		{Pressure, 760, "mmHg", 1013.25, ""},
		{Pressure, 29.92, "inHg", 1013.21, ""},
		{AbsolutePressure, 101325, "Pa", 1013.25, ""},
		{AbsolutePressure, 101.3, "kPa", 1013, ""},
		{Rain, 1, "in", 25.4, ""},
		{Rain, 0.1, "cm", 1, ""},
		{RainRate, 1.5, "cm/h", 15, ""}, // weewx's METRIC rain rate
		{BatteryVoltage, 2.96, "V", 2960, ""},
		{RFStatus, -45, "dBm", 45, ""},
		{RFStatus, -72, "dBm", 72, ""},
		{RFStatus, -101, "dBm", 101, ""},
		{RFStatus, 0, "lqi", 90, ""},
		{RFStatus, 255, "lqi", 60, ""},
		{RFStatus, 51, "lqi", 84, ""},
		{RFStatus, 50, "%", 75, ""}, // −75 dBm
		{WiFiStatus, -40, "dBm", 40, ""},
		{WiFiStatus, -71, "dBm", 71, ""},
		{RFStatus, 300, "lqi", 0, "link quality 300"},
		{RFStatus, 5, "dBm", 0, "want a negative level"},
		{Humidity, 50, "°F", 0, `unknown unit "°F" for Humidity`},
		{CO2, 400, "mg/m3", 0, "unknown unit"},
		{PM25, 12.5, "µg/m³", 12.5, ""}, // micro sign U+00B5
		{PM25, 12.5, "μg/m³", 12.5, ""}, // Greek mu U+03BC
		{PM10, 40, "ug/m3", 40, ""},
		{PM1, 3, "mg/m3", 0, `unknown unit "mg/m3" for PM1: want µg/m³ or none`},
		{VOCIndex, 100, "", 100, ""},
		{NOxIndex, 1, "ppm", 0, "unknown unit"},
	}
	for _, c := range cases {
		got, err := c.m.Convert(c.v, c.unit)
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
