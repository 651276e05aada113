package weather

import (
	"math"
	"testing"
)

// TestHeatIndexNWSTable: points of the NWS heat index chart
// (weather.gov/safety/heat-index, °F against relative humidity), as
// malexer/meteocalc's tests/test_heatindex.py tabulates them: the value
// rounded to the degree is the chart's. Left out are that list's two
// points where the WPC's high-humidity adjustment applies (80 and 82 °F at
// 100 %): there the algorithm departs from the chart on purpose, and
// TestHeatIndexWhereItApplies checks the adjustment itself.
func TestHeatIndexNWSTable(t *testing.T) {
	for _, c := range []struct{ tf, rh, want float64 }{
		{80, 40, 80}, {88, 40, 88}, {90, 40, 91}, {96, 40, 101}, {98, 40, 105},
		{106, 40, 124}, {108, 40, 130}, {110, 40, 136},
		{80, 65, 82}, {84, 65, 89}, {86, 65, 93}, {96, 65, 121}, {100, 65, 136},
		{86, 100, 112}, {90, 100, 132},
	} {
		if got := math.Round(cToF(HeatIndex(fToC(c.tf), c.rh))); got != c.want {
			t.Errorf("heat index at %v °F, %v %%: %v °F, the chart says %v", c.tf, c.rh, got, c.want)
		}
	}
}

// TestHeatIndexWhereItApplies: at 40 °F and below it is the temperature;
// below the regression's range it is Steadman's simple formula, close to
// the temperature; the adjustments move the regression the way the WPC
// describes (down for dry air at 80–112 °F, up for humid air at 80–87 °F).
func TestHeatIndexWhereItApplies(t *testing.T) {
	if got := HeatIndex(2, 90); got != 2 {
		t.Errorf("at 2 °C: %v, want the temperature", got)
	}
	if got := heatIndexF(70, 50); math.Abs(got-69.05) > 1e-9 { // 0.5·(70 + 61 + 2·1.2 + 50·0.094)
		t.Errorf("simple formula at 70 °F, 50 %%: %v, want 69.05", got)
	}
	// 80 °F, 100 %: the regression's 87.188 plus (100−85)/10 · (87−80)/5 = 2.1.
	if got := heatIndexF(80, 100); math.Abs(got-(87.188+2.1)) > 0.001 {
		t.Errorf("adjusted at 80 °F, 100 %%: %.3f, want 89.288", got)
	}
	dry, humid := heatIndexF(100, 10), heatIndexF(84, 95)
	if reg := -42.379 + 2.04901523*100 + 10.14333127*10 - 0.22475541*100*10 - 6.83783e-3*100*100 -
		5.481717e-2*10*10 + 1.22874e-3*100*100*10 + 8.5282e-4*100*10*10 - 1.99e-6*100*100*10*10; dry >= reg {
		t.Errorf("at 100 °F, 10 %%: %v, want below the regression's %v", dry, reg)
	}
	if reg := -42.379 + 2.04901523*84 + 10.14333127*95 - 0.22475541*84*95 - 6.83783e-3*84*84 -
		5.481717e-2*95*95 + 1.22874e-3*84*84*95 + 8.5282e-4*84*95*95 - 1.99e-6*84*84*95*95; humid <= reg {
		t.Errorf("at 84 °F, 95 %%: %v, want above the regression's %v", humid, reg)
	}
}

// TestWindChillNWSChart: points of the NWS wind chill chart
// (weather.gov/safety/cold-wind-chill-chart, °F against mph), as
// malexer/meteocalc's tests/test_windchill.py tabulates them.
func TestWindChillNWSChart(t *testing.T) {
	for _, c := range []struct{ tf, mph, want float64 }{
		{40, 5, 36}, {40, 30, 28}, {40, 60, 25}, {15, 5, 7}, {15, 25, -4}, {15, 40, -8}, {15, 60, -11},
		{0, 5, -11}, {0, 30, -26}, {0, 60, -33}, {-15, 35, -48}, {-15, 60, -55},
		{-30, 5, -46}, {-30, 35, -69}, {-30, 60, -76}, {-45, 5, -63}, {-45, 35, -89}, {-45, 60, -98},
	} {
		if got := math.Round(cToF(WindChill(fToC(c.tf), c.mph*mphInMS))); got != c.want {
			t.Errorf("wind chill at %v °F, %v mph: %v °F, the chart says %v", c.tf, c.mph, got, c.want)
		}
	}
	// Outside its range it is the temperature: 50 °F and above, 3 mph and below.
	for _, c := range []struct{ t, v float64 }{{10, 10}, {12, 8}, {-5, 2.9 * mphInMS}, {-5, 0}} {
		if got := WindChill(c.t, c.v); got != c.t {
			t.Errorf("wind chill at %v °C, %.2f m/s: %v, want the temperature", c.t, c.v, got)
		}
	}
}

// TestHumidexTable: Environment Canada's humidex table (temperature
// against dew point), rows as Wikipedia's "Humidex" page reproduces it.
func TestHumidexTable(t *testing.T) {
	for _, c := range []struct{ t, td, want float64 }{
		{30, 15, 34}, {30, 25, 42}, {43, 28, 59}, {36, 10, 37},
	} {
		if got := math.Round(Humidex(c.t, c.td)); got != c.want {
			t.Errorf("humidex at %v °C, dew point %v °C: %v, the table says %v", c.t, c.td, got, c.want)
		}
	}
	if got := Humidex(5, -20); got != 5 {
		t.Errorf("humidex in dry cold air: %v, want the temperature", got)
	}
}

// TestApparentTemperatureWorked: the BoM's formula worked by hand:
// at 30 °C, 50 %, 2 m/s, e = 0.5 · 6.105 · exp(17.27·30/267.7) = 21.144 hPa
// and AT = 30 + 6.977 − 1.4 − 4 = 31.577 °C; likewise the others.
func TestApparentTemperatureWorked(t *testing.T) {
	for _, c := range []struct{ t, rh, ws, want float64 }{
		{30, 50, 2, 31.577}, {10, 40, 10, 0.618}, {35, 70, 0, 43.940}, {-5, 80, 5, -11.388},
	} {
		if got := ApparentTemperature(c.t, c.rh, c.ws); math.Abs(got-c.want) > 0.0005 {
			t.Errorf("apparent temperature at %v °C, %v %%, %v m/s: %.4f, want %.3f", c.t, c.rh, c.ws, got, c.want)
		}
	}
}

// TestDewPoint: against the exact Magnus inversion at known points
// (bmcnoldy.earth.miami.edu/Humidity.html gives 9.26 °C at 20 °C and
// 50 %, 23.03 °C at 35 °C and 50 %, −13.83 °C at −5 °C and 50 %).
func TestDewPoint(t *testing.T) {
	for _, c := range []struct{ t, rh, want float64 }{{20, 50, 9.26}, {35, 50, 23.03}, {-5, 50, -13.83}, {25, 100, 25}} {
		if got := DewPoint(c.t, c.rh); math.Abs(got-c.want) > 0.1 {
			t.Errorf("dew point at %v °C, %v %%: %.2f, want %.2f", c.t, c.rh, got, c.want)
		}
	}
}
