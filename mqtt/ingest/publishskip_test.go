package ingest

import "testing"

// With device_zones the hub publishes the zones its devices feed, never
// those another hub feeds; without, neither.
func TestPublishSkip(t *testing.T) {
	snzb := upstream(t, "zigbee2mqtt", "snzb02_domoticz")
	in := newTestIngest(t, Options{},
		Mapping{Topic: "zigbee2mqtt/#", Format: "zigbee2mqtt", AutoZone: true},
		Mapping{Topic: "climated/hub-b/#", Format: "climated"})
	feed(t, in, &recSink{}, snzb.msg(),
		msg("climated/hub-b/attic/state", `{"zone":"Attic","Temperature":14.5,"When":1796036400}`))
	for _, c := range []struct {
		deviceZones bool
		zone        string
		skip        bool
	}{
		{false, "sensor1", true}, {false, "Attic", true}, {false, "Kitchen", false},
		{true, "sensor1", false}, {true, "Attic", true}, {true, "Kitchen", false},
	} {
		if got := in.PublishSkip(c.deviceZones)(c.zone); got != c.skip {
			t.Errorf("PublishSkip(%v)(%q) = %v, want %v", c.deviceZones, c.zone, got, c.skip)
		}
	}
}
