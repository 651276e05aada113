package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"net/http"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/cmd/climated/internal/config"
)

// startHub runs serve on loopback with a temporary database until the test ends.
func startHub(t *testing.T, cfg config.Config) served {
	t.Helper()
	h, _ := runHub(t, cfg)
	return h
}

// runHub runs serve until the returned stop is called (or the test ends),
// so that a test can restart a hub as systemctl restart does.
func runHub(t *testing.T, cfg config.Config) (served, func()) {
	t.Helper()
	return runHubEnv(t, cfg, serveEnv{})
}

// startHubEnv is startHub with env.
func startHubEnv(t *testing.T, cfg config.Config, env serveEnv) served {
	t.Helper()
	h, _ := runHubEnv(t, cfg, env)
	return h
}

// runHubEnv is runHub with env, whose ready it sets.
func runHubEnv(t *testing.T, cfg config.Config, env serveEnv) (served, func()) {
	t.Helper()
	return runHubLog(t, cfg, env, slog.New(slog.NewTextHandler(io.Discard, nil)))
}

// runHubLog is runHubEnv logging to log.
func runHubLog(t *testing.T, cfg config.Config, env serveEnv, log *slog.Logger) (served, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan served, 1)
	done := make(chan error, 1)
	env.ready = func(h served) { ready <- h }
	go func() { done <- serve(ctx, cfg, log, env) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("serve: %v", err)
				}
			case <-time.After(20 * time.Second):
				t.Error("serve did not stop within 20 s")
			}
		})
	}
	t.Cleanup(stop)
	select {
	case h := <-ready:
		return h, stop
	case err := <-done:
		t.Fatalf("serve: %v", err)
	case <-time.After(60 * time.Second):
		t.Fatal("hub not ready within 60 s")
	}
	return served{}, stop
}

func testConfig(t *testing.T) config.Config {
	cfg := config.Default()
	cfg.Listen = "127.0.0.1:0"
	cfg.Database = filepath.Join(t.TempDir(), "climated.db")
	// The tests see a reading's commit (the watchdog, a full disk) within
	// a second, not within the default minute.
	cfg.CommitInterval = config.Duration(time.Second)
	return cfg
}

// The keys of the seed's station, zone by zone: every one must be there,
// and no other.
var wantKeys = map[string][]string{
	"Indoor": {"AbsolutePressure", "CO2", "Humidity", "NOxIndex", "Noise", "PM1", "PM10", "PM25", "PM4", "Pressure", "Temperature",
		"VOCIndex", "When", "date_max_temp", "date_min_temp", "max_temp", "min_temp", "pressure_trend", "temp_trend", "wifi_status"},
	"Bedroom": {"CO2", "Humidity", "Temperature", "When", "battery_percent", "battery_vp",
		"date_max_temp", "date_min_temp", "max_temp", "min_temp", "rf_status", "temp_trend"},
	"Balcony": {"Humidity", "Temperature", "When", "battery_percent", "battery_vp",
		"date_max_temp", "date_min_temp", "max_temp", "min_temp", "rf_status", "temp_trend"},
	"Rain": {"Rain", "When", "battery_percent", "battery_vp", "rf_status", "sum_rain_1", "sum_rain_24"},
}

// physical ranges a plausible house stays in.
var ranges = map[string][2]float64{
	"Temperature": {-30, 45}, "min_temp": {-30, 45}, "max_temp": {-30, 45},
	"Humidity": {5, 100}, "CO2": {350, 5000}, "Noise": {20, 100},
	"Pressure": {950, 1060}, "AbsolutePressure": {900, 1060},
	"Rain": {0, 50}, "sum_rain_1": {0, 100}, "sum_rain_24": {0, 300},
	"battery_vp": {3000, 6500}, "battery_percent": {0, 100}, "rf_status": {30, 100}, "wifi_status": {30, 100},
	"PM1": {0, 500}, "PM25": {0, 500}, "PM4": {0, 500}, "PM10": {0, 500}, "VOCIndex": {1, 500}, "NOxIndex": {1, 500},
}

func checkClimate(t *testing.T, c map[string]map[string]any, now time.Time) {
	t.Helper()
	for zone, keys := range wantKeys {
		z, ok := c[zone]
		if !ok {
			t.Errorf("zone %s missing", zone)
			continue
		}
		var got []string
		for k := range z {
			got = append(got, k)
		}
		sort.Strings(got)
		if !slices.Equal(got, keys) {
			t.Errorf("%s keys = %v\nwant %v", zone, got, keys)
		}
		for k, v := range z {
			switch k {
			case "temp_trend", "pressure_trend":
				if v != "up" && v != "down" && v != "stable" {
					t.Errorf("%s %s = %v, want up, down or stable", zone, k, v)
				}
			case "When", "date_min_temp", "date_max_temp":
				ts, ok := v.(float64)
				if !ok || ts != float64(int64(ts)) {
					t.Errorf("%s %s = %v, want a Unix time in seconds", zone, k, v)
					continue
				}
				at := time.Unix(int64(ts), 0)
				if at.After(now.Add(time.Second)) || now.Sub(at) > 24*time.Hour {
					t.Errorf("%s %s = %s, not within the last day of %s", zone, k, at, now)
				}
				if k == "When" && now.Sub(at) > 2*time.Minute {
					t.Errorf("%s When = %s is not recent (now %s)", zone, at, now)
				}
			default:
				f, ok := v.(float64)
				r, known := ranges[k]
				if !ok || !known || f < r[0] || f > r[1] {
					t.Errorf("%s %s = %v, want a number in %v", zone, k, v, r)
				}
			}
		}
		if tmp, lo, hi := num(z["Temperature"]), num(z["min_temp"]), num(z["max_temp"]); z["Temperature"] != nil && !(lo <= tmp && tmp <= hi) {
			t.Errorf("%s: min %v ≤ Temperature %v ≤ max %v does not hold", zone, lo, tmp, hi)
		}
	}
	if in := c["Indoor"]; num(in["AbsolutePressure"]) >= num(in["Pressure"]) {
		t.Errorf("station pressure %v not below sea-level pressure %v", in["AbsolutePressure"], in["Pressure"])
	}
	if r := c["Rain"]; num(r["sum_rain_1"]) > num(r["sum_rain_24"]) {
		t.Errorf("sum_rain_1 %v > sum_rain_24 %v", r["sum_rain_1"], r["sum_rain_24"])
	}
}

// num is v as a number, NaN when it is not one (so every comparison fails).
func num(v any) float64 {
	if f, ok := v.(float64); ok {
		return f
	}
	return math.NaN()
}

// TestEndToEnd is the newcomer's path: a hub with no configuration, an MCP
// client over Streamable HTTP, the tool list, one get_climate call.
func TestEndToEnd(t *testing.T) {
	h := startHub(t, testConfig(t))
	base := "http://" + h.Addr.String()
	client := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: base + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Contains(names, "get_climate") {
		t.Fatalf("tools: %v", names)
	}
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "get_climate", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("get_climate: %v %+v", err, res)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var c map[string]map[string]any
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	checkClimate(t, c, time.Now())

	// The plain API serves the same structure.
	resp, err := http.Get(base + "/api/climate")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var api map[string]map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&api); err != nil {
		t.Fatal(err)
	}
	if len(api) != len(wantKeys) || api["Indoor"]["Temperature"] == nil {
		t.Errorf("/api/climate = %v", api)
	}
	hz, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	hz.Body.Close()
	if hz.StatusCode != 200 {
		t.Errorf("/healthz: %s", hz.Status)
	}
}
