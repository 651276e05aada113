package ingest

import (
	"strings"
	"testing"

	"github.com/climated/climated/mqtt/decode"
	"github.com/climated/climated/sensors"
)

// The tests of devices' defects found in review, each on upstream payloads of
// testdata/corpus (see there for where each comes from).

// Shelly (like ESPHome and rtl_433's device topics) sends one value per
// topic, each retained: at start-up every retained topic of a device is
// its state, and only a topic taken already in this run is a replay.
func TestRetainedStatePerTopic(t *testing.T) {
	temp := upstream(t, "shelly", "plus_ht_status_temperature")
	hum := upstream(t, "shelly", "plus_ht_status_humidity")
	in := newTestIngest(t, Options{}, Mapping{Topic: "shellies/#", Format: "shelly", Zone: "Hall"})
	sink := &recSink{}
	feed(t, in, sink, temp.msg(), hum.msg())
	if got := sink.values("Hall", sensors.Temperature); !equal(got, []float64{29.1}) {
		t.Errorf("temperature %v, want [29.1]", got)
	}
	if got := sink.values("Hall", sensors.Humidity); !equal(got, []float64{42.2}) {
		t.Errorf("humidity %v, want [42.2]: the device's second retained topic was taken for a replay", got)
	}
	// The broker repeats both at a re-subscription: replays now.
	feed(t, in, sink, temp.msg(), hum.msg())
	if st := in.Stats(); st.Replayed != 2 || st.Readings != 2 {
		t.Errorf("stats %+v, want 2 replayed and 2 readings", st)
	}
}

// Tasmota on an ESP32: the processor's temperature is never a room's; an
// analog input's TemperatureN (an NTC, on a Sonoff NSPanel the panel's
// room sensor) is, in the payload's unit (TempUnit F).
func TestTasmotaChipTemperatureIsNoRoom(t *testing.T) {
	plug := upstream(t, "tasmota", "esp32_with_energy")
	panel := upstream(t, "tasmota", "nspanel_analog_esp32_fahrenheit")
	in := newTestIngest(t, Options{}, Mapping{Topic: "tele/#", Format: "tasmota", AutoZone: true})
	sink := &recSink{}
	feed(t, in, sink, plug.msg())
	if len(sink.readings) != 0 || len(in.Zones()) != 0 {
		t.Errorf("readings %+v, zones %v: the ESP32's temperature became a room's", sink.readings, in.Zones())
	}
	feed(t, in, sink, panel.msg())
	if got := sink.values("nspanel", sensors.Temperature); !equal(got, []float64{28.11}) {
		t.Errorf("the panel's temperature %v, want [28.11] (82.6 °F on its NTC, not the ESP32's 156 °F)", got)
	}

	// A field still picks the input by its path.
	in = newTestIngest(t, Options{}, Mapping{Topic: "tele/#", Format: "tasmota", Zone: "Hall",
		Fields: []decode.Field{{Measurement: sensors.Temperature, Path: "ANALOG.Temperature1"}}})
	sink = &recSink{}
	feed(t, in, sink, panel.msg())
	if got := sink.values("Hall", sensors.Temperature); !equal(got, []float64{28.11}) {
		t.Errorf("temperature %v, want [28.11] (82.6 °F)", got)
	}
}

// zigbee2mqtt's pressure (Aqara) is the station's, as Tasmota's, ESPHome's
// and Theengs'; the sea-level Pressure is derived from it.
func TestZigbeePressureIsStationPressure(t *testing.T) {
	aqara := upstream(t, "zigbee2mqtt", "aqara_weather_pressure")
	in := newTestIngest(t, Options{}, Mapping{Topic: "zigbee2mqtt/+", Format: "zigbee2mqtt", AutoZone: true})
	sink := &recSink{}
	feed(t, in, sink, aqara.msg())
	zone := "humidity_xiaomi_bad_stefan"
	if got := sink.values(zone, sensors.AbsolutePressure); !equal(got, []float64{1001.8}) {
		t.Errorf("AbsolutePressure %v, want [1001.8]", got)
	}
	// At altitude 0 (none configured) sea level is the station.
	if got := sink.values(zone, sensors.Pressure); !equal(got, []float64{1001.8}) {
		t.Errorf("Pressure %v, want [1001.8]", got)
	}
}

// A null is "no value in this message": no warning, no fault, and a
// freshly paired device that sends only nulls makes no zone yet.
func TestNullIsNoValue(t *testing.T) {
	fresh := upstream(t, "zigbee2mqtt", "zth01_all_null")
	half := upstream(t, "zigbee2mqtt", "wsdcgq01lm_null_humidity")
	in, log := capturingIngest(t, Options{}, Mapping{Topic: "zigbee2mqtt/#", Format: "zigbee2mqtt", AutoZone: true})
	sink := &recSink{}
	feed(t, in, sink, fresh.msg(), half.msg())
	if st := in.Stats(); st.BadValues != 0 {
		t.Errorf("%d bad values, want 0: a null is no value", st.BadValues)
	}
	if got := sink.values("Thermometer LR", sensors.Temperature); !equal(got, []float64{28.2}) {
		t.Errorf("temperature %v, want [28.2]", got)
	}
	if st := sink.statuses["mqtt/zigbee2mqtt/Thermometer LR"]; st.Err != nil {
		t.Errorf("status error %v, want none", st.Err)
	}
	if z := in.Zones(); len(z) != 1 || z[0] != "Thermometer LR" {
		t.Errorf("zones %v, want only Thermometer LR: nulls make no zone", z)
	}
	if s := log.String(); strings.Contains(s, "level=WARN") {
		t.Errorf("warnings for nulls:\n%s", s)
	}
}

// Shelly Gen1 plain-value topics natively: the add-on's probes
// (ext_temperature/<i>), probe 0 the device's own, the others mappable.
func TestShellyGen1(t *testing.T) {
	p0 := upstream(t, "shelly", "gen1_ext_temperature_0")
	p1 := upstream(t, "shelly", "gen1_ext_temperature_1")
	f := upstream(t, "shelly", "gen1_ext_temperature_f_ignored")
	in := newTestIngest(t, Options{}, Mapping{Topic: "shellies/#", Format: "shelly", Zone: "Boiler room",
		Devices: map[string]string{"shellies/shelly1-XXXXXX/1": "Boiler"}})
	sink := &recSink{}
	feed(t, in, sink, p0.msg(), p1.msg(), f.msg())
	if got := sink.values("Boiler room", sensors.Temperature); !equal(got, []float64{47.69}) {
		t.Errorf("Boiler room %v, want [47.69]", got)
	}
	if got := sink.values("Boiler", sensors.Temperature); !equal(got, []float64{35.75}) {
		t.Errorf("Boiler %v, want [35.75]", got)
	}
	if st := in.Stats(); st.Ignored != 1 {
		t.Errorf("stats %+v, want the °F copy ignored", st)
	}
}

// Several probes of one device, each to a zone of its own.
func TestProbesToZones(t *testing.T) {
	three := upstream(t, "tasmota", "ds18b20_three_probes")
	soil := upstream(t, "rtl_433", "acurite_00275rm_probe")
	in, log := capturingIngest(t, Options{},
		Mapping{Topic: "tele/#", Format: "tasmota", Zone: "Boiler",
			Devices: map[string]string{"ds18x20/DS18B20-3": "Kitchen"}},
		Mapping{Topic: "rtl_433/+/events", Format: "rtl_433",
			Devices: map[string]string{"Acurite-00275rm/2/3253": "Garden", "Acurite-00275rm/2/3253/1": "Flower bed"}})
	sink := &recSink{}
	feed(t, in, sink, three.msg(), soil.msg())
	for zone, want := range map[string]float64{"Boiler": 13.3, "Kitchen": 22.5, "Garden": 5.7, "Flower bed": 16.1} {
		if got := sink.values(zone, sensors.Temperature); !equal(got, []float64{want}) {
			t.Errorf("%s: temperature %v, want [%v]", zone, got, want)
		}
	}
	// DS18B20-2 is mapped nowhere: said once, not recorded.
	if s := log.String(); !strings.Contains(s, "device=ds18x20/DS18B20-2") {
		t.Errorf("the unmapped probe was dropped without a word:\n%s", s)
	}
	if n := len(sink.values("Boiler", sensors.Temperature)); n != 1 {
		t.Errorf("Boiler got %d temperatures", n)
	}
}

// One rtl_433 key format: the path rtl_433 gives a station under devices/,
// the same from events and device topics, logged when first seen.
func TestRTL433DeviceKey(t *testing.T) {
	event := upstream(t, "rtl_433", "fineoffset_whx080_base")
	field := upstream(t, "rtl_433", "devices_topic_temperature")
	other := upstream(t, "rtl_433", "acurite_tower_b")
	in, log := capturingIngest(t, Options{}, Mapping{Topic: "rtl_433/#", Format: "rtl_433",
		Devices: map[string]string{"Fineoffset-WHx080/0/5": "Garden"}})
	sink := &recSink{}
	feed(t, in, sink, event.msg(), field.msg(), other.msg())
	if got := sink.values("Garden", sensors.Temperature); !equal(got, []float64{7.4, 8.4}) {
		t.Errorf("Garden %v, want [7.4 8.4] from the event and the device topic", got)
	}
	if s := log.String(); !strings.Contains(s, `device=Acurite-Tower/B/9884`) || !strings.Contains(s, "under devices:") {
		t.Errorf("the unmapped station's key is not in the log:\n%s", s)
	}
}

// rtl_433 sends every station on one topic: bad input is logged per
// station, so one station's lines hide no other's.
func TestBadInputLoggedPerDevice(t *testing.T) {
	b := upstream(t, "rtl_433", "acurite_tower_b")
	c := upstream(t, "rtl_433", "acurite_tower_c")
	in, log := capturingIngest(t, Options{}, Mapping{Topic: "rtl_433/+/events", Format: "rtl_433",
		Devices: map[string]string{"Fineoffset-WH24/191": "Garden"}})
	feed(t, in, &recSink{}, b.msg(), c.msg())
	s := log.String()
	for _, dev := range []string{"Acurite-Tower/B/9884", "Acurite-Tower/C/12053"} {
		if !strings.Contains(s, dev) {
			t.Errorf("nothing logged about %s:\n%s", dev, s)
		}
	}
}

// A zone the history has already is not new: after a restart every
// auto_zone device is placed again, and logging each at INFO would be a
// line per device per start.
func TestKnownZoneIsNotNew(t *testing.T) {
	half := upstream(t, "zigbee2mqtt", "wsdcgq01lm_null_humidity")
	for _, known := range []bool{false, true} {
		in, log := capturingIngest(t, Options{KnownZone: func(string) bool { return known }},
			Mapping{Topic: "zigbee2mqtt/#", Format: "zigbee2mqtt", AutoZone: true})
		feed(t, in, &recSink{}, half.msg())
		info := strings.Contains(log.String(), `level=INFO msg="mqtt: new zone from a device"`)
		debug := strings.Contains(log.String(), `level=DEBUG msg="mqtt: new zone from a device"`)
		if info == known || debug != known {
			t.Errorf("zone known to the history: %v; logged at INFO %v, at DEBUG %v:\n%s", known, info, debug, log.String())
		}
	}
}
