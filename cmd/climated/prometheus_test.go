package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
	tokenfile "github.com/climated/climated/cmd/climated/internal/token"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// hubGet is the body of a GET of a hub's path, with its token when it
// wants one.
func hubGet(t *testing.T, base, path, token string) []byte {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s %s", path, resp.Status, body)
	}
	return body
}

// hubClimate is a zone's value of key in the hub's /api/climate.
func hubClimate(t *testing.T, base, token, zone, key string) float64 {
	t.Helper()
	var c map[string]map[string]any
	if err := json.Unmarshal(hubGet(t, base, "/api/climate", token), &c); err != nil {
		t.Fatal(err)
	}
	v, ok := c[zone][key].(float64)
	if !ok {
		t.Fatalf("/api/climate has no %s of %s: %v", key, zone, c[zone])
	}
	return v
}

// everyFamily is the /metrics of a running demo hub with a zone
// Everything that has a reading of every measurement of the catalogue
// (the demo house has no weather station).
func everyFamily(t *testing.T) string {
	t.Helper()
	h := startHub(t, demoConfig(t))
	var every []sensors.Reading
	for _, info := range sensors.Catalogue() {
		every = append(every, sensors.Reading{Zone: "Everything", Measurement: info.Name, Value: (info.Min + info.Max) / 2, Time: time.Now(), Source: "test/all"})
	}
	if err := h.Hub.Record(context.Background(), sensors.Batch{Readings: every}); err != nil {
		t.Fatal(err)
	}
	base := "http://" + h.Addr.String()
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		text := string(hubGet(t, base, "/metrics", ""))
		// A value and its age for each, and the zone's age.
		if strings.Contains(text, `measurement="Rain",simulated="true"`) && strings.Count(text, `zone="Everything"`) > 2*len(every) {
			return text
		}
		if time.Now().After(deadline) {
			t.Fatalf("not every reading on /metrics:\n%s", text)
		}
	}
}

// TestPromtoolCheckMetrics: promtool, Prometheus' own linter, finds
// nothing to say of a running demo hub's /metrics with a reading of
// every measurement of the catalogue (everyFamily).
func TestPromtoolCheckMetrics(t *testing.T) {
	promtool := promBinary(t, "promtool")
	text := everyFamily(t)
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = strings.NewReader(text)
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("promtool check metrics: %v\n%s", err, out)
	}
}

// TestPrometheusScrapesHubs: a real Prometheus scrapes two demo hubs, the
// home on loopback and the cabin beyond it with its token, as
// docs/prometheus.md configures it; each hub's Bedroom temperature in
// Prometheus is its /api/climate's. Rain: a gauge of the test's in a zone
// Shed reports 0 mm, then amounts; the home hub restarts between two of
// them, right after one. increase() over an hour, evaluated at the
// latest sample (where Prometheus does not extrapolate: the counter
// started at 0), is each hub's own sum_rain_1 of the zone: every amount
// counted once, the one recorded just before the restart included.
// (The demo's own Rain zone reports every 5 minutes: over the seconds
// Prometheus has scraped, increase() cannot know the hour before.)
func TestPrometheusScrapesHubs(t *testing.T) {
	bin := promBinary(t, "prometheus")
	homeCfg := demoConfig(t)
	home, stopHome := runHub(t, homeCfg)
	homeCfg.Listen = home.Addr.String() // the same port after the restart
	cabinCfg := demoConfig(t)
	cabinCfg.Listen = "0.0.0.0:0" // beyond loopback: the token is needed
	cabinCfg.Discovery = new(false)
	cabin := startHub(t, cabinCfg)
	token, err := tokenfile.LoadOrCreate(cabinCfg.TokenPath())
	if err != nil {
		t.Fatal(err)
	}
	tokenFile := filepath.Join(t.TempDir(), "climated.token")
	os.WriteFile(tokenFile, []byte(token+"\n"), 0o600)
	cabinAddr := fmt.Sprintf("127.0.0.1:%d", cabin.Addr.(*net.TCPAddr).Port)
	bases := map[string]string{"home": "http://" + homeCfg.Listen, "cabin": "http://" + cabinAddr}
	tokens := map[string]string{"cabin": token}

	shed := func(h served, mm float64) {
		t.Helper()
		r := sensors.Reading{Zone: "Shed", Measurement: sensors.Rain, Value: mm, Time: time.Now(), Source: "test/gauge"}
		if err := h.Hub.Record(context.Background(), sensors.Batch{Readings: []sensors.Reading{r}}); err != nil {
			t.Fatal(err)
		}
	}
	shed(home, 0)
	shed(cabin, 0)

	prom := startPrometheus(t, bin, []scrapeJob{{"home", homeCfg.Listen, ""}, {"cabin", cabinAddr, tokenFile}})
	for job := range bases {
		prom.one(t, fmt.Sprintf(`up{job=%q}`, job), func(s promSample) (bool, string) {
			return s.Value == 1, "the hub is down to Prometheus (a token refused?)"
		})
	}
	for job, base := range bases {
		q := fmt.Sprintf(`climated_temperature_celsius{job=%q,zone="Bedroom"}`, job)
		s := prom.one(t, q, func(s promSample) (bool, string) {
			api := hubClimate(t, base, tokens[job], "Bedroom", "Temperature")
			return sensors.Temperature.Round(s.Value, 0) == api, fmt.Sprintf("%v in Prometheus, %v in the hub's /api/climate", s.Value, api)
		})
		if s.Metric["simulated"] != "true" || s.Metric["source"] != "demo/Bedroom" {
			t.Errorf("%s: labels %v, want simulated=true, source=demo/Bedroom", q, s.Metric)
		}
		t.Logf("%s = %v, as the hub's /api/climate", q, s.Value)
	}

	counter := func(job string, mm float64) {
		t.Helper()
		prom.one(t, fmt.Sprintf(`climated_rain_meters_total{job=%q,zone="Shed"}`, job), func(s promSample) (bool, string) {
			return sensors.Rain.Round(s.Value*1000, 1) == sensors.Rain.Round(mm, 1), fmt.Sprintf("%v m, want %v mm", s.Value, mm)
		})
	}
	shed(home, 0.2794)
	shed(cabin, 0.5)
	counter("home", 0.2794)
	counter("cabin", 0.5)
	shed(home, 1.1)
	stopHome()
	home, _ = runHub(t, homeCfg)
	shed(home, 0.3)
	counter("home", 1.6794)

	for job, base := range bases {
		last := prom.query(t, fmt.Sprintf(`timestamp(climated_rain_meters_total{job=%q,zone="Shed"})`, job), "")
		if len(last) != 1 {
			t.Fatalf("%s: no rain counter of Shed: %+v", job, last)
		}
		q := fmt.Sprintf(`increase(climated_rain_meters_total{job=%q,zone="Shed"}[1h])`, job)
		inc := prom.query(t, q, strconv.FormatFloat(last[0].Value, 'f', 3, 64))
		api := hubClimate(t, base, tokens[job], "Shed", sensors.KeySumRain1)
		if len(inc) != 1 || sensors.Rain.Round(inc[0].Value*1000, 0) != api {
			t.Errorf("%s: %s = %+v m, want the hub's sum_rain_1 %v mm", job, q, inc, api)
			continue
		}
		t.Logf("%s: %s = %v m, the hub's sum_rain_1 %v mm", job, q, inc[0].Value, api)
	}

	// The Grafana dashboard's queries, for the Bedroom of every hub: each
	// is PromQL Prometheus takes, and the temperature shows both hubs.
	prom.checkDashboardLists(t, map[string]string{"zone": "Bedroom"})
	vars := strings.NewReplacer("$job", ".*", "$hub", ".*", "$zone", "Bedroom", "$__interval", "1h")
	for _, expr := range dashboardExprs(t) {
		got := prom.query(t, vars.Replace(expr), "")
		if strings.HasPrefix(expr, "climated_temperature_celsius") && len(got) != 2 {
			t.Errorf("the dashboard's %s: %+v, want the Bedroom of both hubs", expr, got)
		}
	}
}

// TestPrometheusDocConfigs: the Prometheus configurations
// docs/prometheus.md shows are valid for promtool check config as
// written, with their token files in place, and the hub's (a block that
// starts with its file's name) for the hub.
func TestPrometheusDocConfigs(t *testing.T) {
	promtool := promBinary(t, "promtool")
	dir := t.TempDir()
	checked := 0
	blocks := strings.Split(testutil.Doc(t, "docs/prometheus.md"), "```")
	for i := 1; i < len(blocks); i += 2 {
		yml, ok := strings.CutPrefix(blocks[i], "yaml\n")
		if !ok {
			continue
		}
		if strings.HasPrefix(yml, "# /etc/climated/climated.yaml") {
			checkHubDocConfig(t, dir, yml)
			continue
		}
		yml = strings.ReplaceAll(yml, "/etc/prometheus/", dir+"/")
		for _, m := range regexp.MustCompile(`credentials_file: (\S+)`).FindAllStringSubmatch(yml, -1) {
			os.WriteFile(m[1], []byte("token\n"), 0o600)
		}
		file := filepath.Join(dir, fmt.Sprintf("prometheus-%d.yml", i))
		os.WriteFile(file, []byte(yml), 0o600)
		if out, err := exec.Command(promtool, "check", "config", file).CombinedOutput(); err != nil {
			t.Errorf("promtool check config of docs/prometheus.md's\n%s\nsays: %v\n%s", yml, err, out)
		}
		checked++
	}
	if checked < 2 {
		t.Errorf("checked %d configurations of docs/prometheus.md, want 2 (scrape, remote_write)", checked)
	}
}

// checkHubDocConfig holds a hub configuration of the docs to what the
// hub takes, with its secret files in place.
func checkHubDocConfig(t *testing.T, dir, yml string) {
	t.Helper()
	yml = strings.ReplaceAll(yml, "/etc/climated/", dir+"/")
	for _, m := range regexp.MustCompile(`(?:password|token)_file: (\S+)`).FindAllStringSubmatch(yml, -1) {
		os.WriteFile(m[1], []byte("secret\n"), 0o600)
	}
	if _, err := config.Check("climated.yaml", []byte(yml)); err != nil {
		t.Errorf("the hub's configuration in docs/prometheus.md\n%s\nis refused: %v", yml, err)
	}
}
