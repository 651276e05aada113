package ingest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/climated/climated/internal/testutil"
)

// readmeExample is the README's example configuration (docs/mqtt.md shows
// it verbatim: cmd/climated/internal/config's test).
var readmeExample = filepath.Join("..", "..", "testdata", "mqtt-example.yaml")

// Every corpus payload goes to the subscription of its format under the
// README's filters (rtl_433's per-field device topics and its states,
// and Tasmota's Status answers excepted: the events and tele/ carry the
// same values),
// and, replayed through mosquitto, lands where the example puts it.
func TestReadmeExampleTakesTheCorpus(t *testing.T) {
	ms := readmeSubscriptions(t)
	in := newTestIngest(t, Options{}, ms...)
	var all []corpusCase
	for _, p := range corpusProjects {
		for _, c := range loadCorpus(t, p) {
			all = append(all, c)
			i := in.route(c.Topic)
			switch {
			case i < 0 && (strings.HasPrefix(c.Topic, "rtl_433/pi/devices/") || c.Topic == "rtl_433/pi/states" || strings.HasPrefix(c.Topic, "stat/")):
			case i < 0:
				t.Errorf("%s/%s: no subscription of the example takes %s", c.Format, c.Name, c.Topic)
			case ms[i].Format != c.Format:
				t.Errorf("%s/%s: %s goes to subscription %q of format %s", c.Format, c.Name, c.Topic, ms[i].Topic, ms[i].Format)
			}
		}
	}
	// ESPHome's <node>/status is not a Shelly's.
	if i := in.route("livingroom/status"); i < 0 || ms[i].Format != "esphome" {
		t.Errorf("livingroom/status goes to %d", i)
	}

	h := startCorpusHub(t, ms)
	checked := 0
	for _, c := range all {
		if in.route(c.Topic) < 0 {
			continue
		}
		h.publish(t, c.Topic, []byte(c.Payload), c.Retained)
		m := ms[in.route(c.Topic)]
		if _, named := m.Devices[c.Zone]; m.AutoZone && m.Zone == "" && !named {
			h.check(t, c) // placed as under the corpus's own configuration
			checked++
		}
	}
	if checked < 30 {
		t.Errorf("only %d payloads checked under the example", checked)
	}
	// The example names the roof's station and the bedroom's sensor, whose
	// room the upstairs hub reports as well: said once.
	snzb := upstream(t, "zigbee2mqtt", "snzb02_domoticz")
	h.publish(t, "zigbee2mqtt/bedroom_th", []byte(snzb.Payload), false)
	state, err := os.ReadFile(filepath.Join("..", "decode", "testdata", "climated", "bedroom.msg"))
	if err != nil {
		t.Fatal(err)
	}
	_, payload, _ := bytes.Cut(state, []byte("\n"))
	h.publish(t, "climated/upstairs/bedroom/state", payload, false)
	// QoS 1 readings reach the history with their commit (at most 200 ms).
	for zone, want := range map[string]float64{"Roof": 7.4, "Garden": 14.8} {
		testutil.WaitFor(t, fmt.Sprintf("%s: temperature %v", zone, want), func() bool {
			return h.store.Snapshot().Climate[zone]["Temperature"] == want
		})
	}
	testutil.WaitFor(t, "the upstairs hub's bedroom", func() bool {
		return h.store.Snapshot().Climate["Bedroom"]["CO2"] == 812.0 // the hub's alone
	})
	testutil.WaitFor(t, "the warning about two sources", func() bool {
		return strings.Count(h.log.String(), "two sources feed the same zone") == 1 &&
			strings.Contains(h.log.String(), `sources="mqtt/zigbee2mqtt/bedroom_th, mqtt/climated/Bedroom"`)
	})
}

func readmeSubscriptions(t *testing.T) []Mapping {
	t.Helper()
	data, err := os.ReadFile(readmeExample)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		MQTT struct {
			Subscriptions []Mapping `yaml:"subscriptions"`
		} `yaml:"mqtt"`
	}
	if err := yaml.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	return file.MQTT.Subscriptions
}
