package mqtt

import "testing"

func TestMatches(t *testing.T) {
	cases := []struct {
		filter, topic string
		want          bool
	}{
		{"zigbee2mqtt/+", "zigbee2mqtt/bedroom", true},
		{"zigbee2mqtt/+", "zigbee2mqtt/bedroom/availability", false},
		{"zigbee2mqtt/#", "zigbee2mqtt/bedroom/availability", true},
		{"zigbee2mqtt/#", "zigbee2mqtt", true}, // # includes the parent level
		{"rtl_433/+/events", "rtl_433/pi/events", true},
		{"rtl_433/+/events", "rtl_433/pi/states", false},
		{"+/sensor/+/state", "node/sensor/t/state", true},
		{"a/b", "a/b", true},
		{"a/b", "a/b/c", false},
		{"a/b/c", "a/b", false},
		{"a/+", "a", false},
		{"+", "a", true},
		{"+", "", true},
		{"#", "$SYS/broker/uptime", false}, // wildcards skip the broker's own topics
		{"+/broker/uptime", "$SYS/broker/uptime", false},
		{"$SYS/#", "$SYS/broker/uptime", true},
		{"a//b", "a//b", true},
		{"a/+/b", "a//b", true},
	}
	for _, c := range cases {
		if got := Matches(c.filter, c.topic); got != c.want {
			t.Errorf("Matches(%q, %q) = %v, want %v", c.filter, c.topic, got, c.want)
		}
	}
}

func TestValidFilter(t *testing.T) {
	for _, f := range []string{"a", "a/+/b", "#", "a/#", "+/+", "$SYS/#"} {
		if err := ValidFilter(f); err != nil {
			t.Errorf("ValidFilter(%q) = %v", f, err)
		}
	}
	for _, f := range []string{"", "a/#/b", "a#", "a/b+", "a\x00b"} {
		if err := ValidFilter(f); err == nil {
			t.Errorf("ValidFilter(%q) accepted", f)
		}
	}
	if ValidTopic("a/+") == nil || ValidTopic("climated/hub") != nil {
		t.Error("validTopic: wildcards must be refused, plain topics accepted")
	}
}
