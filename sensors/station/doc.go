// Package station decodes what a weather station uploads over HTTP to a
// "customized server": the Ecowitt protocol (a form of imperial fields,
// POSTed by Ecowitt gateways and consoles and the Fine Offset clones) and
// the Weather Underground protocol (a GET query, which Ambient Weather's
// consoles send too), into values by part of the station (its console,
// its outdoor array, channels 1–8, soil, leaf and leak sensors, the PM2.5
// and CO₂ sensors, the lightning detector), in the catalogue's units,
// and the rain counters, which only their increases turn into rain.
// Wind (under Netatmo's names), sun, UV, rain rate, soil moisture, leaf
// wetness, leaks and lightning are the catalogue's measurements, recorded
// as the rest. Start reading at Source.Handler: an upload is decoded
// (Decode, fields.go), turned into readings and rain (source.go,
// rain.go) and handed to the hub's sink.
package station
