// Package sensors is the reading vocabulary every part of climated speaks:
// the catalogue of measurements (catalogue.go: name and key, unit and the
// units devices send with their conversions, decimals, range, storage
// resolution, Home Assistant classes, the words a model reads), the
// Reading a source produces, the Status it reports about itself, and the
// Source and Sink interfaces where sources (I²C chips, the GPIO rain gauge,
// MQTT devices, the demo house) meet the history that records them.
//
// Dependencies point towards this package: it imports nothing of climated.
package sensors
