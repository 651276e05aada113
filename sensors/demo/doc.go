// Package demo is the demo house that climated runs when no sensor is
// configured. Its data is SIMULATED: every value comes from a model,
// none was measured. It exists so that a fresh installation has something to
// show, and the logs and every reading's source ("demo/<Zone>") say so.
//
// The house looks like a Netatmo weather station: a main station in
// the living room (zone Indoor), an indoor module in the Bedroom, an outdoor
// module on the Balcony and a Rain gauge, with a SEN55-like air-quality
// sensor beside the main station:
//
//	Indoor   Temperature Humidity CO2 Noise Pressure AbsolutePressure wifi_status
//	         PM1 PM25 PM4 PM10 VOCIndex NOxIndex
//	Bedroom  Temperature Humidity CO2 battery_vp battery_percent rf_status
//	Balcony  Temperature Humidity battery_vp battery_percent rf_status
//	Rain     Rain battery_vp battery_percent rf_status
//
// Start reading at House.At, the model: a pure function of the seed, the
// location and the instant, whose randomness is hash noise (noise.go).
// House.Run records its readings into a sensors.Sink every
// Options.Interval, after the Options.Backfill.
//
// The model, each part beside its constants: the outdoor temperature,
// humidity, pressure and rain in weather.go; the rooms' temperature,
// humidity, CO2 and noise in indoor.go; the living room's particulate
// matter, VOC and NOx indices, its meals and its airing in air.go; the
// batteries and radio signals in devices.go; wall clock and sun in
// clock.go.
package demo
