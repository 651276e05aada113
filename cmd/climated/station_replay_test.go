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
