package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/climated/climated/internal/testutil"
)

// TestReloadToTheDemoSaysSimulated: a hub started with the demo beside an
// MQTT device says on its dashboard that its data is simulated
// (set.Simulated); the same configuration reached by a reload, the demo
// added to the device, must say so too, since the demo's simulated zones
// are then on the dashboard beside the device's.
func TestReloadToTheDemoSaysSimulated(t *testing.T) {
	_, brokerAddr := testutil.LoopbackBroker(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "climated.yaml")
	head := "listen: 127.0.0.1:0\ndatabase: " + filepath.Join(dir, "climated.db") + "\n" + `mqtt:
  broker: tcp://` + brokerAddr + `
  subscriptions:
    - {topic: "zigbee2mqtt/+", format: zigbee2mqtt, devices: {attic_th: Attic}}
`
	write := func(body string) {
		if err := os.WriteFile(path, []byte(head+body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("")
	h, reload, logs, _ := serveReloading(t, path)
	simulated := func() bool {
		t.Helper()
		resp, err := http.Get("http://" + h.Addr.String() + "/dash/state")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		state, _ := io.ReadAll(resp.Body)
		return strings.Contains(string(state), `"simulated":true`)
	}
	if simulated() {
		t.Fatal("the dashboard says simulated with the device alone")
	}

	write("demo: {enabled: true}\n")
	reload <- struct{}{}
	testutil.WaitFor(t, "configuration reloaded", func() bool { return strings.Contains(logs.String(), `msg="configuration reloaded"`) })
	testutil.WaitFor(t, "the demo's zones", func() bool { return h.Hub.Snapshot().Climate["Indoor"] != nil })
	if !strings.Contains(logs.String(), "simulated=true") {
		t.Errorf("the reload did not start the demo house:\n%s", logs.String())
	}
	if !simulated() {
		t.Errorf("the dashboard shows the demo's zones %v and does not say they are simulated", h.Hub.Zones())
	}
}
