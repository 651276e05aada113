package weather

// Where the derived temperatures apply, as the NWS and Environment Canada
// use them.
const (
	HeatIndexFrom = 26.7 // °C: 80 °F, where the NWS heat index begins
	WindChillTo   = 10   // °C: 50 °F, below which wind chill applies
	WindChillFrom = 4.8  // km/h: 3 mph, above which it applies
	HumidexFrom   = 20   // °C: the humidex is a summer index
)

// Feel is what air feels like: the apparent temperature and the dew point
// always, the heat index, wind chill and humidex only where they apply
// (false otherwise), all in °C.
type Feel struct {
	Apparent, DewPoint                  float64
	HeatIndex, WindChill, Humidex       float64
	HasHeatIndex, HasWindChill, HasHumi bool
}

// Feels is how air at t °C and rh % with a wind of kmh km/h feels, by the
// formulas of this package (each cites its own).
func Feels(t, rh, kmh float64) Feel {
	ms := kmh / 3.6
	f := Feel{Apparent: ApparentTemperature(t, rh, ms), DewPoint: DewPoint(t, rh)}
	if hi := HeatIndex(t, rh); hi >= HeatIndexFrom {
		f.HeatIndex, f.HasHeatIndex = hi, true
	}
	if t < WindChillTo && kmh > WindChillFrom {
		f.WindChill, f.HasWindChill = WindChill(t, ms), true
	}
	if t >= HumidexFrom {
		f.Humidex, f.HasHumi = Humidex(t, f.DewPoint), true
	}
	return f
}
