package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/token"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/station"
)

// sendLine sends one HTTP request line, as a station sent it, to the
// hub over TCP, its path beneath prefix, and returns the status and body.
func sendLine(t *testing.T, h served, line, prefix string) (int, string) {
	t.Helper()
	method, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	target, proto, _ := strings.Cut(rest, " ")
	target = prefix + strings.TrimPrefix(target, "/")
	conn, err := net.DialTimeout("tcp", h.Addr.String(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(conn, "%s %s %s\r\nHost: %s\r\nConnection: close\r\n\r\n", method, target, proto, h.Addr)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestStationRequestLines: request lines that real stations sent
// (sensors/station/testdata/requests, with their provenance), replayed
// byte for byte over TCP against a running hub beneath its station path,
// become zones with the values the published unit definitions give
// (°F → °C, 1 inHg = 33.8638866667 hPa, 1 mph = 1.609344 km/h), rounded
// as get_climate shows them. An Ambient Weather console's upload is taken
// whether the path it was given ends in "?" (…/?&PASSKEY=…) or not
// (…/&PASSKEY=…, its firmware appends the fields to the path as it is).
func TestStationRequestLines(t *testing.T) {
	f := func(v float64) float64 { return (v - 32) * 5 / 9 }
	inHg, mph := 33.8638866667, 1.609344
	for _, c := range []struct {
		name, file, after, answer string
		want                      map[string]map[sensors.Measurement]float64
	}{
		{"ambient, path with ?", "ambient_awnet_v525.txt", "", "OK", map[string]map[sensors.Measurement]float64{
			"Hall": {sensors.Temperature: f(71.8), sensors.Humidity: 57, sensors.Pressure: 29.881 * inHg, sensors.AbsolutePressure: 29.902 * inHg},
			"Garden": {sensors.Temperature: f(59.7), sensors.Humidity: 92, sensors.WindStrength: 2.46 * mph, sensors.GustStrength: 3.36 * mph,
				sensors.WindAngle: 173, sensors.UV: 0, sensors.SolarRadiation: 5.10},
		}},
		{"ambient, path without ?", "ambient_awnet_v525.txt", "strip?", "OK", map[string]map[sensors.Measurement]float64{
			"Garden": {sensors.Temperature: f(59.7), sensors.WindStrength: 2.46 * mph},
		}},
		{"weather underground", "wunderground_wiki.txt", "", "success", map[string]map[sensors.Measurement]float64{
			"Hall":   {sensors.Pressure: 29.1 * inHg},
			"Garden": {sensors.Temperature: f(70), sensors.Humidity: 90, sensors.WindAngle: 230, sensors.WindStrength: 12 * mph, sensors.GustStrength: 12 * mph},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := stationHub(t)
			h := startHub(t, cfg)
			raw, err := os.ReadFile(filepath.Join("..", "..", "sensors", "station", "testdata", "requests", c.file))
			if err != nil {
				t.Fatal(err)
			}
			line := string(raw)
			if c.after == "strip?" {
				line = strings.Replace(line, "GET ?&", "GET &", 1)
			}
			secret, err := token.LoadOrCreate(cfg.StationSecretPath())
			if err != nil {
				t.Fatal(err)
			}
			code, body := sendLine(t, h, line, station.Path(secret))
			if code != http.StatusOK || strings.TrimSpace(body) != c.answer {
				t.Fatalf("answered %d %q, want 200 %q", code, body, c.answer)
			}
			snap := h.Hub.Snapshot().Climate
			for zone, vals := range c.want {
				for m, w := range vals {
					if got, ok := snap[zone][string(m)].(float64); !ok || got != m.Round(w, 0) {
						t.Errorf("%s %s: %v, want %v (%.4f as get_climate rounds it)", zone, m, snap[zone][string(m)], m.Round(w, 0), w)
					}
				}
			}
			if _, ok := snap["Garden"][sensors.KeyFeelsLike]; !ok {
				t.Errorf("the garden has wind, temperature and humidity but no feels_like: %v", snap["Garden"])
			}
		})
	}
}

// TestStationCorpusThroughServe: every upload of the corpus
// (sensors/station/testdata/ecowitt2mqtt: two GW2000As, one with a WS90's
// piezo gauge, leak, leaf and lightning sensors; a GW1100B with soil
// moisture; an Ambient console in the Ecowitt protocol; an ObserverIP in
// the Weather Underground protocol, sent as its GET), replayed against a
// running hub, gives the values the published unit definitions give, as
// get_climate rounds them.
func TestStationCorpusThroughServe(t *testing.T) {
	f := func(v float64) float64 { return (v - 32) * 5 / 9 }
	mph, inHg := 1.609344, 33.8638866667
	type values map[string]map[sensors.Measurement]float64
	for _, c := range []struct {
		file string
		get  bool // the Weather Underground protocol: a GET
		want values
	}{
		{"payload_gw2000a_1.json", false, values{
			"Garden":        {sensors.Temperature: f(74.5), sensors.Humidity: 47, sensors.WindAngle: 100, sensors.WindStrength: 1.34 * mph, sensors.SolarRadiation: 0, sensors.UV: 0},
			"Hall":          {sensors.Temperature: f(71.2)},
			"Station leak1": {sensors.Leak: 0}, "Station leak2": {sensors.Leak: 1}, "Station leaf1": {sensors.LeafWetness: 14},
		}},
		{"payload_gw1100b.json", false, values{
			"Garden": {sensors.Temperature: f(91.4), sensors.Humidity: 48, sensors.RainRate: 0}, "Hall": {sensors.Temperature: f(76.5)},
			"Bedroom": {sensors.Temperature: f(77.7)}, "Station soil1": {sensors.SoilMoisture: 40},
		}},
		{"payload_ambweather.json", false, values{
			"Garden": {sensors.Temperature: f(53.8), sensors.Humidity: 30, sensors.WindAngle: 99, sensors.WindStrength: 4.5 * mph, sensors.SolarRadiation: 39.02},
			"Hall":   {sensors.Temperature: f(67.3)},
		}},
		{"payload_wunderground.json", true, values{
			"Garden": {sensors.Temperature: f(89.42), sensors.Humidity: 54, sensors.WindAngle: 269, sensors.WindStrength: 0, sensors.SolarRadiation: 732.04, sensors.UV: 6},
			"Hall":   {sensors.Temperature: f(79.34), sensors.Pressure: 30.135 * inHg},
		}},
	} {
		t.Run(c.file, func(t *testing.T) {
			cfg := stationHub(t)
			h := startHub(t, cfg)
			form := stationForm(t, c.file, time.Now())
			if c.get {
				secret, err := token.LoadOrCreate(cfg.StationSecretPath())
				if err != nil {
					t.Fatal(err)
				}
				line := "GET /weatherstation/updateweatherstation.php?" + form.Encode() + " HTTP/1.1"
				if code, body := sendLine(t, h, line, station.Path(secret)); code != http.StatusOK {
					t.Fatalf("upload: %d %s", code, body)
				}
			} else if code := postStation(t, h, cfg, form); code != http.StatusOK {
				t.Fatalf("upload: %d", code)
			}
			snap := h.Hub.Snapshot().Climate
			for zone, vals := range c.want {
				for m, w := range vals {
					if got, ok := snap[zone][string(m)].(float64); !ok || got != m.Round(w, 0) {
						t.Errorf("%s %s: %v, want %v (%.4f rounded)", zone, m, snap[zone][string(m)], m.Round(w, 0), w)
					}
				}
			}
		})
	}
}
