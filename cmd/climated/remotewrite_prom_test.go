package main

import (
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/remotewrite"
)

// rangeSamples are the raw samples of a Prometheus range selector
// (q[...]) at now, as export gives VictoriaMetrics' series.
func (p promServer) rangeSamples(t *testing.T, q string) []exported {
	t.Helper()
	var r struct {
		Result []struct {
			Metric map[string]string
			Values [][2]json.Number
		}
	}
	p.api(t, "/api/v1/query", url.Values{"query": {q}}, &r)
	var out []exported
	for _, s := range r.Result {
		e := exported{Metric: s.Metric}
		for _, v := range s.Values {
			at, _ := v[0].Float64()
			f, _ := v[1].Float64()
			e.Timestamps = append(e.Timestamps, int64(at*1000+0.5))
			e.Values = append(e.Values, f)
		}
		out = append(out, e)
	}
	return out
}

// TestRemoteWritePrometheus: a hub pushes to Prometheus' remote-write
// receiver and VictoriaMetrics at once, and both hold the same samples.
// A second hub whose readings are hours older than what Prometheus holds
// (a catch-up after a long outage) is refused them, 400, by a Prometheus
// without an out-of-order window: they are counted as failed, given up,
// and the hub goes on; one with out_of_order_time_window takes them.
func TestRemoteWritePrometheus(t *testing.T) {
	t.Parallel()
	bin := promBinary(t, "prometheus")
	prom := startPrometheusWith(t, bin, "global:\n  scrape_interval: 1m\n", "--web.enable-remote-write-receiver")
	ooo := startPrometheusWith(t, bin, "storage:\n  tsdb:\n    out_of_order_time_window: 1d\n", "--web.enable-remote-write-receiver")
	vm := startVM(t, "", "")
	// Both Prometheus servers get the first hub's readings: their newest
	// samples are then recent.
	h := startHub(t, rwConfig(t, remotewrite.Config{URL: vm.url() + "/api/v1/write"}, remotewrite.Config{URL: prom.base + "/api/v1/write"},
		remotewrite.Config{URL: ooo.base + "/api/v1/write"}))
	base := time.Now().Add(-40 * time.Minute).Truncate(time.Minute)
	recordMinutes(t, h, base, 0, 20)
	waitRW(t, h, "sent", upToDate(40))
	for _, q := range []string{"climated_temperature_celsius", "climated_rain_meters_total"} {
		sel := q + `{zone="Cabin"}`
		checkSame(t, q, prom.rangeSamples(t, sel+"[2h]"), vm.export(sel))
	}
	checkMinutes(t, prom.rangeSamples(t, `climated_temperature_celsius{zone="Cabin"}[2h]`), prom.rangeSamples(t, `climated_rain_meters_total{zone="Cabin"}[2h]`), base, 20, 0)
	prom.checkDashboardLists(t, map[string]string{"job": "climated", "hub": "cabin", "zone": "Cabin"})
	// The dashboard's temperature, at the last reading's time.
	vars := strings.NewReplacer("$job", ".*", "$hub", ".*", "$zone", "Cabin", "$__interval", "1h")
	at := strconv.FormatInt(base.Add(19*time.Minute).Unix(), 10)
	for _, expr := range dashboardExprs(t) {
		if got := prom.query(t, vars.Replace(expr), at); strings.HasPrefix(expr, "climated_temperature_celsius") && (len(got) != 1 || got[0].Value != 21.9) {
			t.Errorf("the dashboard's %s: %+v, want the Cabin's 21.9", expr, got)
		}
	}

	// The second hub: five readings of each from five hours ago.
	cfg := rwConfig(t, remotewrite.Config{URL: prom.base + "/api/v1/write"}, remotewrite.Config{URL: ooo.base + "/api/v1/write"})
	for i := range cfg.RemoteWrite {
		cfg.RemoteWrite[i].Backfill = 6 * time.Hour
	}
	old := startHub(t, cfg)
	recordMinutes(t, old, time.Now().Add(-5*time.Hour).Truncate(time.Minute), 0, 5)
	got := waitRW(t, old, "done with the old readings", func(h rwHealth) bool {
		return len(h.RemoteWrite) == 2 && h.RemoteWrite[0].State == remotewrite.StateUpToDate && h.RemoteWrite[0].Failed+h.RemoteWrite[0].Sent == 10 &&
			h.RemoteWrite[1].State == remotewrite.StateUpToDate && h.RemoteWrite[1].Sent == 10
	})
	if s := got.RemoteWrite[0]; s.Failed != 10 {
		t.Errorf("Prometheus without an out-of-order window: %+v; want 10 samples failed (refused as too old)", s)
	}
	if got := ooo.rangeSamples(t, `climated_temperature_celsius{zone="Cabin"}[6h]`); len(got) != 1 || len(got[0].Timestamps) != 25 {
		t.Errorf("Prometheus with an out-of-order window: %+v; want the 20 recent and the 5 old readings", got)
	}
}

// labelValues are the values of label among the series of selector, as
// Grafana's label_values asks Prometheus for them.
func (p promServer) labelValues(t *testing.T, label, selector string) []string {
	t.Helper()
	var r []string
	p.api(t, "/api/v1/label/"+label+"/values", url.Values{"match[]": {selector}}, &r)
	return r
}

// checkDashboardLists: the Grafana dashboard's lists (job, hub, zone),
// asked of p as Grafana asks, with every entry selected, hold want.
func (p promServer) checkDashboardLists(t *testing.T, want map[string]string) {
	t.Helper()
	all := strings.NewReplacer("$job", ".*", "$hub", ".*")
	vars := dashboardVariables(t)
	for name, w := range want {
		v, ok := vars[name]
		if !ok {
			t.Fatalf("the dashboard has no list %s: %v", name, vars)
		}
		if got := p.labelValues(t, v[1], all.Replace(v[0])); !slices.Contains(got, w) {
			t.Errorf("the dashboard's list %s: %q, want %s among them", name, got, w)
		}
	}
}

// checkSame holds two stores' samples of one family to each other.
func checkSame(t *testing.T, what string, a, b []exported) {
	t.Helper()
	if len(a) != 1 || len(b) != 1 {
		t.Fatalf("%s: %d and %d series, want one each", what, len(a), len(b))
	}
	if len(a[0].Timestamps) != len(b[0].Timestamps) {
		t.Fatalf("%s: %d and %d samples", what, len(a[0].Timestamps), len(b[0].Timestamps))
	}
	for i := range a[0].Timestamps {
		if a[0].Timestamps[i] != b[0].Timestamps[i] || a[0].Values[i] != b[0].Values[i] {
			t.Errorf("%s sample %d: %d %v in Prometheus, %d %v in VictoriaMetrics", what, i, a[0].Timestamps[i], a[0].Values[i], b[0].Timestamps[i], b[0].Values[i])
		}
	}
}
