package main

import (
	"encoding/json"
	"maps"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/climated/climated/cmd/climated/internal/remotewrite"
	"github.com/climated/climated/internal/testutil"
)

// grafanaDashboard is the dashboard docs/prometheus.md offers for import.
const grafanaDashboard = "../../docs/grafana/climated.json"

// queries gathers the strings under keys of a Grafana dashboard,
// wherever they nest: panels' exprs, the variables' queries.
func queries(v any, key string, keys map[string]bool, out *[]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			queries(x, k, keys, out)
		}
	case []any:
		for _, x := range v {
			queries(x, key, keys, out)
		}
	case string:
		if keys[key] {
			*out = append(*out, v)
		}
	}
}

// dashboardExprs are the PromQL expressions of the dashboard's panels.
func dashboardExprs(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(grafanaDashboard)
	if err != nil {
		t.Fatal(err)
	}
	var all any
	if err := json.Unmarshal(data, &all); err != nil {
		t.Fatal(err)
	}
	var qs []string
	queries(all, "", map[string]bool{"expr": true}, &qs)
	return qs
}

// dashboardVariables are the dashboard's variables of label values: each
// variable's name, selector and label (label_values(SELECTOR, LABEL)).
func dashboardVariables(t *testing.T) map[string][2]string {
	t.Helper()
	data, err := os.ReadFile(grafanaDashboard)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Templating struct {
			List []struct{ Name, Definition string }
		}
	}
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	out := map[string][2]string{}
	re := regexp.MustCompile(`^label_values\((.+), (\w+)\)$`)
	for _, v := range d.Templating.List {
		if m := re.FindStringSubmatch(v.Definition); m != nil {
			out[v.Name] = [2]string{m[1], m[2]}
		}
	}
	return out
}

// TestGrafanaDashboard: the dashboard is JSON Grafana can import (panels,
// the hub and zone variables, a row repeated per zone), and every climated_
// metric its queries name is one a running hub's /metrics has.
func TestGrafanaDashboard(t *testing.T) {
	data, err := os.ReadFile(grafanaDashboard)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Title      string
		Templating struct{ List []struct{ Name string } }
		Panels     []struct {
			Type, Repeat string
		}
	}
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatalf("%s: %v", grafanaDashboard, err)
	}
	vars := map[string]bool{}
	for _, v := range d.Templating.List {
		vars[v.Name] = true
	}
	repeated := false
	for _, p := range d.Panels {
		repeated = repeated || p.Type == "row" && p.Repeat == "zone"
	}
	if d.Title == "" || !vars["hub"] || !vars["zone"] || !vars["datasource"] || !repeated {
		t.Errorf("%s: title %q, variables %v, a row repeated per zone %v: want a title, datasource, hub and zone, and the row", grafanaDashboard, d.Title, vars, repeated)
	}

	var all any
	json.Unmarshal(data, &all)
	var qs []string
	queries(all, "", map[string]bool{"expr": true, "query": true, "definition": true}, &qs)
	exported := exportedFamilies(t)
	named := regexp.MustCompile(`\bclimated_[a-z0-9_]+`)
	used := 0
	for _, q := range qs {
		for _, name := range named.FindAllString(q, -1) {
			used++
			if !exported[name] {
				t.Errorf("%s asks for %s, which the hub does not export (query %q)", grafanaDashboard, name, q)
			}
		}
	}
	if used < 10 {
		t.Errorf("%s names %d climated metrics in %d queries: the queries were not found", grafanaDashboard, used, len(qs))
	}
}

// exportedFamilies are the families on a running hub's /metrics, a
// reading of every measurement of the catalogue among them
// (everyFamily), with the series names of its histograms.
func exportedFamilies(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, line := range strings.Split(everyFamily(t), "\n") {
		f := strings.Fields(line)
		if len(f) == 4 && f[0] == "#" && f[1] == "TYPE" {
			out[f[2]] = true
			if f[3] == "histogram" {
				out[f[2]+"_bucket"], out[f[2]+"_sum"], out[f[2]+"_count"] = true, true, true
			}
		}
	}
	return out
}

// TestPrometheusDocNames: every climated_ metric docs/prometheus.md names
// is one the hub exports.
func TestPrometheusDocNames(t *testing.T) {
	exported := exportedFamilies(t)
	maps.Copy(exported, remoteWriteFamilies())
	names := regexp.MustCompile(`\bclimated_[a-z0-9_]+`).FindAllString(testutil.Doc(t, "docs/prometheus.md"), -1)
	for _, name := range names {
		if !exported[name] {
			t.Errorf("docs/prometheus.md names %s, which the hub does not export", name)
		}
	}
	if len(names) < 20 {
		t.Errorf("docs/prometheus.md names %d metrics, want its table of every measurement's", len(names))
	}
}

// remoteWriteFamilies are the families of a hub that pushes (its
// remote_write), which the hub of exportedFamilies does not.
func remoteWriteFamilies() map[string]bool {
	ch := make(chan *prometheus.Desc, 100)
	remotewrite.Senders(nil).Describe(ch)
	close(ch)
	out := map[string]bool{}
	name := regexp.MustCompile(`fqName: "([a-z0-9_]+)"`)
	for d := range ch {
		if m := name.FindStringSubmatch(d.String()); m != nil {
			out[m[1]] = true
		}
	}
	return out
}
