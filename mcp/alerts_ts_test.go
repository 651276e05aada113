package mcp

import (
	"bufio"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// TestTypeScriptClientAlerts runs scripts/mcp-clients/ts-alerts.mjs, the
// official TypeScript SDK client, against a hub with alerts: it creates a
// rule through elicitation, subscribes to the active alerts, and hears
// the alert this test makes fire.
func TestTypeScriptClientAlerts(t *testing.T) {
	dir, _ := filepath.Abs("../scripts/mcp-clients")
	node := testutil.Node(t, dir)
	h := newAlertHub(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "ts-alerts.mjs", h.http.URL+"/mcp")
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var lines []string
	stop, fired, started := make(chan struct{}), make(chan struct{}), false
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if sc.Text() == "subscribed" && !started {
			started = true
			// Subscriptions take effect as the server reads them: fire and
			// clear until the client has heard (it exits when it has).
			go func() {
				defer close(fired)
				for v := 1300.0; ; v += 10 {
					for _, ppm := range []float64{900, v} {
						evs, _ := h.engine.Observe(ctx, []sensors.Reading{reading("Bedroom", sensors.CO2, ppm, time.Now())})
						h.srv.AlertEvent(ctx, evs)
					}
					select {
					case <-stop:
						return
					case <-time.After(100 * time.Millisecond):
					}
				}
			}()
		}
	}
	err = cmd.Wait()
	close(stop)
	if started {
		<-fired
	}
	if err != nil || !strings.Contains(strings.Join(lines, "\n"), "ts-alerts: passed") {
		t.Fatalf("ts-alerts: %v\n%s\n%s", err, strings.Join(lines, "\n"), stderr.String())
	}
}
