// Package station decodes what a weather station uploads over HTTP to a
// "customized server": the Ecowitt protocol (a form of imperial fields,
// POSTed by Ecowitt gateways and consoles and the Fine Offset clones) and
// the Weather Underground protocol (a GET query, which Ambient Weather's
// consoles send too), into values by part of the station (its console,
// its outdoor array, channels 1–8, soil, leaf and leak sensors, the PM2.5
// and CO₂ sensors, the lightning detector), in the catalogue's units,
// and the rain counters, which only their increases turn into rain.
//
// Wind, sun, UV, rain rate, soil moisture, leaf wetness, leaks and
// lightning are not in the catalogue yet (issue 30): they are decoded
// here under the names they will have (Netatmo's for wind), and the hub
// does not record them yet.
package station
