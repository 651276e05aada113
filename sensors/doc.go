// Package sensors is the reading vocabulary every part of climated speaks:
// what a measurement is called, its unit and how precisely it is shown, the
// Reading a source produces, the Status it reports about itself, and the
// Source and Sink interfaces where sources (I²C chips, the GPIO rain gauge,
// MQTT devices, the demo house) meet the history that records them.
//
// Dependencies point towards this package: it imports nothing of climated.
package sensors
