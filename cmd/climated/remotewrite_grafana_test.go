package main

import (
	"context"
	"encoding/json"
	"math"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/remotewrite"
	"github.com/climated/climated/sensors"
)

// dashboardTarget is one query of a panel of the dashboard, as Grafana
// runs it: an instant query, or a range query at the panel's interval.
type dashboardTarget struct {
	panel, expr, interval string
	instant               bool
}

// dashboardTargets are every panel's queries, rows' nested panels
// included.
func dashboardTargets(t *testing.T) []dashboardTarget {
	t.Helper()
	data, err := os.ReadFile(grafanaDashboard)
	if err != nil {
		t.Fatal(err)
	}
	type panel struct {
		Title, Interval string
		Targets         []struct {
			Expr    string
			Instant bool
		}
		Panels []json.RawMessage
	}
	var d struct{ Panels []json.RawMessage }
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	var out []dashboardTarget
	var walk func([]json.RawMessage)
	walk = func(ps []json.RawMessage) {
		for _, raw := range ps {
			var p panel
			if err := json.Unmarshal(raw, &p); err != nil {
				t.Fatal(err)
			}
			for _, tg := range p.Targets {
				out = append(out, dashboardTarget{panel: p.Title, expr: tg.Expr, interval: p.Interval, instant: tg.Instant})
			}
			walk(p.Panels)
		}
	}
	walk(d.Panels)
	return out
}

// grafanaRegex is a multi-value variable as Grafana writes it into a
// Prometheus regex matcher: its values escaped, (a|b).
func grafanaRegex(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = regexp.QuoteMeta(v)
	}
	if len(q) == 1 {
		return q[0]
	}
	return "(" + strings.Join(q, "|") + ")"
}

// substitute puts the variables' values into q as Grafana does ($name
// and ${name}); interval is $__interval.
func substitute(q string, vars map[string]string) string {
	re := regexp.MustCompile(`\$\{?(__interval|[a-z]+)\}?`)
	return re.ReplaceAllStringFunc(q, func(m string) string {
		name := strings.Trim(m, "${}")
		if v, ok := vars[name]; ok {
			return v
		}
		return m
	})
}

// queryRange is a range query of q from start to end at step, as a
// Grafana time series panel asks it: each series' labels.
func (p promServer) queryRange(t *testing.T, q string, start, end time.Time, step time.Duration) []map[string]string {
	t.Helper()
	v := url.Values{"query": {q}, "start": {strconv.FormatInt(start.Unix(), 10)}, "end": {strconv.FormatInt(end.Unix(), 10)},
		"step": {strconv.Itoa(int(step.Seconds()))}}
	var r struct {
		Result []struct{ Metric map[string]string }
	}
	p.api(t, "/api/v1/query_range", v, &r)
	var out []map[string]string
	for _, s := range r.Result {
		out = append(out, s.Metric)
	}
	return out
}

// gardenHub is one hub of TestRemoteWriteTwoHubsDashboard: its instance
// label, its zones and its Garden's temperature.
type gardenHub struct {
	instance string
	zones    []string
	temp     float64
}

// recordEverything records, each minute of n from base, a reading of
// every measurement of the catalogue in the Garden (its temperature
// temp), and in the hub's other zones a temperature.
func recordEverything(t *testing.T, h served, g gardenHub, base time.Time, n int) {
	t.Helper()
	var rs []sensors.Reading
	for i := range n {
		at := base.Add(time.Duration(i) * time.Minute)
		for _, info := range sensors.Catalogue() {
			v := (info.Min + info.Max) / 2
			if info.Name == sensors.Temperature {
				v = g.temp
			}
			rs = append(rs, sensors.Reading{Zone: "Garden", Measurement: info.Name, Value: v, Time: at, Source: "test/" + g.instance})
		}
		for _, z := range g.zones[1:] {
			rs = append(rs, sensors.Reading{Zone: z, Measurement: sensors.Temperature, Value: g.temp, Time: at, Source: "test/" + g.instance})
		}
	}
	if err := h.Hub.Record(context.Background(), sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
}

// TestRemoteWriteTwoHubsDashboard: two hubs, each with its own database
// and its own instance label as docs/prometheus.md sets it, push to one
// VictoriaMetrics and one Prometheus; in each store, the dashboard's
// variables list both hubs (and each hub's zones alone when one is
// picked), and every query of every panel, run as Grafana runs it with
// the hub variable at All, at a regex of every hub and at each hub,
// shows the Garden of exactly the hubs picked, with each hub's own
// temperature.
func TestRemoteWriteTwoHubsDashboard(t *testing.T) {
	t.Parallel()
	prom := startPrometheusWith(t, promBinary(t, "prometheus"), "global:\n  scrape_interval: 1m\n", "--web.enable-remote-write-receiver")
	vm := startVM(t, "", "")
	hubs := []gardenHub{{instance: "cabin", zones: []string{"Garden"}, temp: 12.5}, {instance: "home", zones: []string{"Garden", "Kitchen"}, temp: 21.5}}
	base := time.Now().Add(-30 * time.Minute).Truncate(time.Minute)
	const minutes = 10
	for _, g := range hubs {
		cfg := rwConfig(t, remotewrite.Config{URL: vm.url() + "/api/v1/write"}, remotewrite.Config{URL: prom.base + "/api/v1/write"})
		for i := range cfg.RemoteWrite {
			cfg.RemoteWrite[i].Labels = map[string]string{"instance": g.instance}
		}
		h := startHub(t, cfg)
		recordEverything(t, h, g, base, minutes)
		waitRW(t, h, "sent", upToDate(int64(minutes*(len(sensors.Catalogue())+len(g.zones)-1))))
	}
	vm.export(`{zone="Garden"}`) // makes what it took searchable
	end := base.Add((minutes - 1) * time.Minute)
	for _, store := range []promServer{prom, {base: vm.url()}} {
		checkDashboardHubs(t, store, hubs, base, end)
	}
}

// checkDashboardHubs runs the dashboard's variables and panels against
// store at end (the range queries over base to end), for each choice of
// the hub variable.
func checkDashboardHubs(t *testing.T, store promServer, hubs []gardenHub, base, end time.Time) {
	t.Helper()
	vars := dashboardVariables(t)
	jobs := store.labelValues(t, vars["job"][1], vars["job"][0])
	if !slices.Equal(jobs, []string{"climated"}) {
		t.Errorf("%s: the job list: %q, want [climated]", store.base, jobs)
	}
	all := map[string]string{"job": grafanaRegex(jobs)}
	listed := store.labelValues(t, vars["hub"][1], substitute(vars["hub"][0], all))
	if !slices.Equal(listed, []string{"cabin", "home"}) {
		t.Fatalf("%s: the hub list: %q, want [cabin home]", store.base, listed)
	}
	choices := map[string][]gardenHub{"All": hubs, ".*": hubs}
	for _, g := range hubs {
		choices[g.instance] = []gardenHub{g}
	}
	for choice, picked := range choices {
		v := map[string]string{"job": all["job"], "hub": choice, "__interval": "1h"}
		if choice == "All" {
			v["hub"] = grafanaRegex(listed)
		}
		var wantZones []string
		for _, g := range picked {
			wantZones = append(wantZones, g.zones...)
		}
		slices.Sort(wantZones)
		wantZones = slices.Compact(wantZones)
		zones := store.labelValues(t, vars["zone"][1], substitute(vars["zone"][0], v))
		if !slices.Equal(zones, wantZones) {
			t.Errorf("%s, hub %s: the zone list: %q, want %q", store.base, choice, zones, wantZones)
		}
		// The row repeated per zone, a zone at a time; the panels above
		// it with every zone picked.
		for _, z := range zones {
			v["zone"] = z
			checkPanels(t, store, v, picked, true, z == "Garden", base, end)
		}
		v["zone"] = grafanaRegex(zones)
		checkPanels(t, store, v, picked, false, true, base, end)
	}
}

// checkPanels runs the queries of the panels of the repeated row (row)
// or those above it with vars: each shows series of no hub but those
// picked, and when whole, of every one of them; the temperature is each
// hub's.
func checkPanels(t *testing.T, store promServer, vars map[string]string, picked []gardenHub, row, whole bool, base, end time.Time) {
	t.Helper()
	var want []string
	for _, g := range picked {
		want = append(want, g.instance)
	}
	at := strconv.FormatInt(end.Unix(), 10)
	checked := 0
	for _, tg := range dashboardTargets(t) {
		if strings.Contains(tg.expr, `zone="$zone"`) != row {
			continue
		}
		checked++
		q := substitute(tg.expr, vars)
		if regexp.MustCompile(`\$\{?[a-z_]`).MatchString(q) {
			t.Fatalf("%s: %s keeps a variable the test does not know", tg.panel, q)
		}
		var instances []string
		if !tg.instant {
			for _, m := range store.queryRange(t, q, base, end, time.Minute) {
				instances = append(instances, m["instance"])
			}
		}
		for _, s := range store.query(t, q, at) {
			if tg.instant {
				instances = append(instances, s.Metric["instance"])
			}
			checkValue(t, store, tg, q, s, picked)
		}
		slices.Sort(instances)
		got := slices.Compact(instances)
		if whole && !slices.Equal(got, want) || !isSubset(got, want) {
			t.Errorf("%s: panel %q, %s: the hubs of its series %q, want %q", store.base, tg.panel, q, got, want)
		}
	}
	if checked < 2 {
		t.Errorf("%d queries of the dashboard's panels (row %v): were they found?", checked, row)
	}
}

// checkValue holds a sample of a panel to what the hubs recorded: the
// temperature to each hub's, a hub that pushes reporting (1) and its
// zones' ages to none, as the panel is evaluated at the last reading.
func checkValue(t *testing.T, store promServer, tg dashboardTarget, q string, s promSample, picked []gardenHub) {
	t.Helper()
	want := math.NaN()
	switch {
	case strings.HasPrefix(tg.expr, "up{"):
		want = 1
	case strings.HasPrefix(tg.expr, "climated_zone_age_seconds"):
		want = 0
	case strings.HasPrefix(tg.expr, "climated_temperature_celsius"):
		for _, g := range picked {
			if g.instance == s.Metric["instance"] {
				want = g.temp
			}
		}
	default:
		return
	}
	if math.IsNaN(want) || math.Abs(s.Value-want) > 1e-9 {
		t.Errorf("%s: panel %q, %s: %v of %v, want %v", store.base, tg.panel, q, s.Value, s.Metric, want)
	}
}
