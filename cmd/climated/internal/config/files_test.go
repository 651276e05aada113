package config

import (
	"reflect"
	"strings"
	"testing"
)

func TestConfigExampleIsCompleteAndValid(t *testing.T) {
	for name, file := range map[string][]byte{"example": Example, "starter": Starter} {
		if _, err := Check("example.yaml", file); err != nil {
			t.Errorf("the %s does not pass the check: %v", name, err)
		}
		if name == "example" {
			for _, key := range knownKeys(reflect.TypeOf(Config{})) {
				if !strings.Contains(string(file), "\n"+key+":") {
					t.Errorf("the example lacks the key %s", key)
				}
			}
		}
	}
}

func TestConfigCheckErrors(t *testing.T) {
	cases := []struct{ name, yaml, want string }{
		{"typo", "listen: 127.0.0.1:8473\ncolour: blue\n", "c.yaml:2: unknown key colour"},
		{"wrong type", "demo:\n  seed: many\n", `c.yaml:2: demo.seed: "many" is not a whole number`},
		{"bad listen", "log_level: info\nlisten: nowhere\n", `c.yaml:2: listen "nowhere": want HOST:PORT`},
		{"sensor without a zone", "sensors:\n  - {zone: Indoor, chip: bme280}\n  - {chip: sht4x, address: 0x44}\n", "c.yaml:3: sensors[1]"},
		{"wrong address", "sensors:\n  - zone: Indoor\n    chip: bme280\n    address: 0x44\n", "c.yaml:4: sensors[0].address: 0x44 is not an address of the bme280"},
		{"bad broker", "mqtt:\n  broker: ftp://example\n", "c.yaml:2: mqtt: broker"},
		{"bad subscription", "mqtt:\n  broker: tcp://127.0.0.1:1883\n  subscriptions:\n    - {topic: \"a/#/b\", format: zigbee2mqtt, zone: X}\n", "c.yaml:4: mqtt: subscriptions[0]: topic \"a/#/b\": '#' must be the last level"},
		{"rain gauge without pin", "rain_gauge:\n  zone: Rain\n", "c.yaml:1: rain_gauge: pin: empty"},
		{"retention not a duration", "retention:\n  raw: a month\n", `c.yaml:2: duration "a month"`},
		{"retention too short", "retention:\n  raw: 2h\n", "c.yaml:2: retention.raw 2h0m0s: keep raw readings at least a day"},
		{"commit interval too short", "commit_interval: 100ms\n", "c.yaml:1: commit_interval 100ms: want 1s to 1h"},
		{"commit interval too long", "commit_interval: 1d\n", "c.yaml:1: commit_interval 24h0m0s: want 1s to 1h"},
		{"latitude beyond the pole", "log_level: info\nlocation:\n  latitude: 91\n  longitude: 13.4\n", "c.yaml:3: location.latitude 91: want -90 to 90"},
		{"longitude beyond the date line", "location: {latitude: 52.5, longitude: -181}\n", "c.yaml:1: location.longitude -181: want -180 to 180"},
		{"location without a longitude", "location:\n  latitude: 52.5\n", "c.yaml:1: location.longitude: missing: write it as longitude: 13.40"},
		{"latitude not a number", "location:\n  latitude: north\n  longitude: 13.4\n", "c.yaml:2: location.latitude"},
		{"degree-day base in °F", "degree_day_base: 65\n", "c.yaml:1: degree_day_base 65: want -30 to 40 °C"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Check("c.yaml", []byte(c.yaml))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}
