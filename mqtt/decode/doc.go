// Package decode turns the MQTT payloads of the devices people already have
// into climated measurements: one file per format, each a Decoder that
// names the device a message is about, the values it carries (converted to
// the units of the sensors catalogue and checked against its ranges) and
// what it says about the device being online. Decoders keep no state and
// never panic; a bad value is dropped and named in Result.Problems while
// the payload's other values are kept.
//
// New makes the Decoder of a format (Formats lists them) with the fields
// a mapping configures (Field: a JSON path or the plain payload per
// measurement, with a unit); Decoder.Decode turns a topic and its payload
// into a Result of Values. Start reading at decode.go, then the file of a
// format, whose decoder's comment gives its topics and payloads:
//
//	zigbee2mqtt.go  zigbee2mqtt: <base>/<friendly name>, its availability
//	tasmota.go      Tasmota: tele/<topic>/SENSOR (a chip a probe), STATE, LWT
//	esphome.go      ESPHome: <node>/sensor/<name>/state, the measurement
//	                guessed from the sensor's name (esphomeGuess)
//	shelly.go       Shelly Gen1, Gen2 and Gen3
//	theengs.go      Theengs Gateway, OpenMQTTGateway: BLE sensors
//	rtl433.go       rtl_433: events and device topics, rain counters
//	generic.go      generic: configured fields only
//	climated.go     climated: another hub's <prefix>/<zone>/state
//
// json.go reads numbers as JSON numbers and as strings, and a null (JSON
// null, None, nan) as no value in this message, not a fault; fields.go
// applies a format's built-in names and the configured fields. A device
// with several sensors of a kind marks each value with its Probe, the
// first of each measurement also the device's own (Value.Main).
//
// Units, battery levels and radio signals are the sensors catalogue's
// conversions (Convert; sensors/units.go, battery.go and signal.go), the
// same as the hub's own sensors'. What each format gives, as users
// configure it, is in docs/mqtt.md; how the mqtt packages treat it, in
// docs/development.md, "The mqtt packages".
package decode
