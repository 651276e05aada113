package metrics

import (
	"math"
	"regexp"
	"testing"

	"github.com/climated/climated/sensors"
)

// TestCatalogueUnits walks the catalogue: every measurement's unit has a
// place in units, so that it gets a family, and every family has a name
// of its own in Prometheus' conventions (snake case, a counter's _total).
// The names of today's measurements are spelled out: they are what
// Prometheus stores and dashboards ask for.
func TestCatalogueUnits(t *testing.T) {
	want := map[sensors.Measurement]string{
		sensors.Temperature: "climated_temperature_celsius", sensors.Humidity: "climated_humidity_ratio",
		sensors.CO2: "climated_co2_ppm", sensors.Noise: "climated_noise_decibels",
		sensors.Pressure: "climated_pressure_pascals", sensors.AbsolutePressure: "climated_absolute_pressure_pascals",
		sensors.Rain: "climated_rain_meters_total", sensors.PM1: "climated_pm1_grams_per_cubic_meter",
		sensors.PM25: "climated_pm25_grams_per_cubic_meter", sensors.PM4: "climated_pm4_grams_per_cubic_meter",
		sensors.PM10: "climated_pm10_grams_per_cubic_meter", sensors.VOCIndex: "climated_voc_index",
		sensors.NOxIndex: "climated_nox_index", sensors.BatteryVoltage: "climated_battery_vp_volts",
		sensors.BatteryPercent: "climated_battery_ratio", sensors.RFStatus: "climated_rf_status",
		sensors.WiFiStatus: "climated_wifi_status", sensors.WindStrength: "climated_wind_strength_meters_per_second",
		sensors.WindAngle: "climated_wind_angle_degrees", sensors.RainRate: "climated_rain_rate_meters_per_second",
		sensors.SolarRadiation: "climated_solar_radiation_watts_per_square_meter", sensors.UV: "climated_uv",
		sensors.Lightning: "climated_lightning_total", sensors.LightningDistance: "climated_lightning_distance_meters",
	}
	valid := regexp.MustCompile(`^climated_[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	fams := families()
	seen := map[string]sensors.Measurement{}
	for _, info := range sensors.Catalogue() {
		u, ok := units[info.Unit]
		if !ok {
			t.Errorf("%s: unit %q has no suffix in units (units.go): add its base unit and factor", info.Name, info.Unit)
			continue
		}
		f, ok := fams[info.Name]
		if !ok {
			t.Errorf("%s: no family", info.Name)
			continue
		}
		name := familyName(info, u)
		if !valid.MatchString(name) {
			t.Errorf("%s: family %q is not in snake case", info.Name, name)
		}
		if other, dup := seen[name]; dup {
			t.Errorf("%s and %s share the family %s", other, info.Name, name)
		}
		seen[name] = info.Name
		if (info.Kind == sensors.Amount) != (len(name) > 6 && name[len(name)-6:] == "_total") {
			t.Errorf("%s (kind %d): family %s; an amount, and only an amount, is a counter ending in _total", info.Name, info.Kind, name)
		}
		if w, ok := want[info.Name]; ok && name != w {
			t.Errorf("%s: family %s, want %s", info.Name, name, w)
		}
		if f.desc == nil || math.IsNaN(u.scale(info.Max, info.Decimals)) || u.scale(info.Max, info.Decimals) == 0 && info.Max != 0 {
			t.Errorf("%s: %g %s scales to %g", info.Name, info.Max, info.Unit, u.scale(info.Max, info.Decimals))
		}
	}
}

// TestScale: a value in its family's unit keeps the precision it has in
// the catalogue's, with no binary residue (0.45, not 0.45000000000000001).
func TestScale(t *testing.T) {
	for _, c := range []struct {
		unit     string
		v        float64
		decimals int
		want     float64
	}{
		{"°C", 21.4, 1, 21.4},
		{"%", 45, 0, 0.45},
		{"%", 57, 0, 0.57},
		{"hPa", 1013.2, 1, 101320},
		{"hPa", 998.7, 1, 99870},
		{"mm", 0.279, 3, 0.000279},
		{"mm", 80.4672, 4, 0.0804672},
		{"µg/m³", 13.3, 1, 0.0000133},
		{"mV", 5874, 0, 5.874},
		{"km/h", 36, 1, 10},
		{"km/h", 13, 0, 3.6},
		{"mm/h", 12.3, 1, 0.00000342},
		{"km", 12, 0, 12000},
		{"", 71, 0, 71},
	} {
		if got := units[c.unit].scale(c.v, c.decimals); got != c.want {
			t.Errorf("%g %s: %v, want %v", c.v, c.unit, got, c.want)
		}
	}
}

func TestSnake(t *testing.T) {
	for in, want := range map[string]string{
		"Temperature": "temperature", "AbsolutePressure": "absolute_pressure", "CO2": "co2", "PM25": "pm25",
		"VOCIndex": "voc_index", "NOxIndex": "nox_index", "UVIndex": "uv_index", "WindSpeed": "wind_speed",
		"battery_vp": "battery_vp", "wifi_status": "wifi_status",
	} {
		if got := snake(in); got != want {
			t.Errorf("snake(%q) = %q, want %q", in, got, want)
		}
	}
}
