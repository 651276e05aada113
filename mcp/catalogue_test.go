package mcp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// TestToolsDescribeEveryMeasurement: over a real client, with a zone that
// records every measurement of the catalogue, get_climate's description
// names each with its unit, get_history takes each, and each reaches a
// report: a room or weather value through the daily or history data of
// some report kind, a device's health through sensor_health's zone list.
func TestToolsDescribeEveryMeasurement(t *testing.T) {
	ctx := context.Background()
	cs := catalogueHub(t).inMemory(t, nil)
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	all, _ := json.Marshal(tools)
	t.Logf("tools/list of a house with every measurement of the catalogue: %d tokens (the served demo house's budget: 1500)", tokens(string(all)))
	desc, enum := toolsNaming(t, cs)
	covered := reportCoverage(t, cs)
	for _, info := range sensors.Catalogue() {
		m := string(info.Name)
		if info.Brief == "" || !describedWith(desc, m, info.Brief) || !strings.Contains(info.Brief, info.Unit) {
			t.Errorf("get_climate's description has no line of %s with %q and its unit %q", m, info.Brief, info.Unit)
		}
		if !slices.Contains(enum, m) {
			t.Errorf("get_history's measurements %v lack %s", enum, m)
		}
		want := "daily or history data"
		if info.Kind == sensors.Health {
			want = "sensor_health"
		}
		if !slices.Contains(covered[m], want) {
			t.Errorf("%s: no report covers it through %s (covered by %v)", m, want, covered[m])
		}
	}
}

// describedWith reports whether desc has a key line "- A, B: brief"
// naming m among its keys.
func describedWith(desc, m, brief string) bool {
	for _, line := range strings.Split(desc, "\n") {
		keys, rest, ok := strings.Cut(strings.TrimPrefix(line, "- "), ": ")
		if ok && strings.HasPrefix(line, "- ") && rest == brief && slices.Contains(strings.Split(keys, ", "), m) {
			return true
		}
	}
	return false
}

// catalogueHub is a hub whose zone Hall has recorded every measurement.
func catalogueHub(t *testing.T) *testHub {
	t.Helper()
	ctx := context.Background()
	store, err := hub.Open(ctx, filepath.Join(t.TempDir(), "h.db"), &history.Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	var rs []sensors.Reading
	for _, info := range sensors.Catalogue() {
		for i := range 3 {
			v := info.Name.Round(info.Min+float64(i+1)*(info.Max-info.Min)/10, 0)
			rs = append(rs, sensors.Reading{Zone: "Hall", Measurement: info.Name, Value: v, Time: now.Add(time.Duration(i-3) * 10 * time.Second), Source: "test"})
		}
	}
	if err := store.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
	if err := store.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	srv := New(t.Context(), store, &Options{Zones: []string{"Hall"}, Location: time.UTC, Version: "test"})
	t.Cleanup(func() {
		srv.Close()
		store.Close(ctx)
	})
	return &testHub{store: store, srv: srv}
}

// reportCoverage gets every report kind's prompt and says, per
// measurement, how it reaches a report: "daily or history data" when a
// daily summary or a history of some kind carries it, "sensor_health"
// when that review's zone list does.
func reportCoverage(t *testing.T, cs *sdk.ClientSession) map[string][]string {
	t.Helper()
	covered := map[string][]string{}
	for _, kind := range reportKinds() {
		res, err := cs.GetPrompt(context.Background(), &sdk.GetPromptParams{Name: kind})
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		for _, msg := range res.Messages {
			r, ok := msg.Content.(*sdk.EmbeddedResource)
			if !ok {
				continue
			}
			for _, m := range resourceMeasurements(t, r.Resource) {
				switch {
				case !strings.HasPrefix(r.Resource.URI, URIZones):
					covered[m] = append(covered[m], "daily or history data")
				case kind == "sensor_health":
					covered[m] = append(covered[m], "sensor_health")
				}
			}
		}
	}
	return covered
}

// resourceMeasurements lists the measurements a daily, history or zones
// resource carries.
func resourceMeasurements(t *testing.T, rc *sdk.ResourceContents) []string {
	t.Helper()
	var v struct {
		Measurement string `json:"measurement"`
		Days        []struct {
			Measurements map[string]any `json:"measurements"`
		} `json:"days"`
		Zones []struct {
			Measurements []struct{ Name string } `json:"measurements"`
		} `json:"zones"`
	}
	if err := json.Unmarshal([]byte(rc.Text), &v); err != nil {
		return nil // a zone's current state: not a summary
	}
	var out []string
	if v.Measurement != "" {
		out = append(out, v.Measurement)
	}
	for _, d := range v.Days {
		for m := range d.Measurements {
			out = append(out, m)
		}
	}
	for _, z := range v.Zones {
		for _, m := range z.Measurements {
			out = append(out, m.Name)
		}
	}
	return out
}

// TestReadmeDocumentsEveryMeasurement: the table of get_climate keys in
// docs/mcp.md has a row for every measurement of the catalogue.
func TestReadmeDocumentsEveryMeasurement(t *testing.T) {
	_, section, _ := strings.Cut(testutil.Doc(t, "docs/mcp.md"), "## `get_climate`\n")
	section, _, _ = strings.Cut(section, "\n## ")
	var rows []string
	for line := range strings.Lines(section) {
		if strings.HasPrefix(line, "| `") {
			rows = append(rows, strings.SplitN(line, "|", 3)[1])
		}
	}
	for _, m := range sensors.Measurements() {
		if !slices.ContainsFunc(rows, func(keys string) bool { return strings.Contains(keys, "`"+string(m)+"`") }) {
			t.Errorf("docs/mcp.md's table of get_climate keys has no row for %s", m)
		}
	}
}
