package metrics

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/sensors"
)

func openHub(t *testing.T, path string) *hub.Hub {
	t.Helper()
	// Commits wait for Flush or Close: what WatchReadings finds
	// uncommitted must be counted once all the same.
	h, err := hub.Open(context.Background(), path, &history.Options{FlushInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	return string(body)
}

// TestReadings: the current readings on /metrics. A gauge is there while
// it is current, in its family's unit at the catalogue's precision, and
// left out once it is stale by the hub's rule (silent for 15 minutes, or
// its zone offline), its age still beside it; the demo's values say
// simulated="true". Rain is a counter of every amount the zone recorded:
// it starts from the history's total after a restart, counts the
// readings that waited uncommitted when it started once, and every
// reading recorded after once; a stale zone keeps its counter.
func TestReadings(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	now := time.Now()
	tip := func(zone string, ago time.Duration) sensors.Reading {
		return sensors.Reading{Zone: zone, Measurement: sensors.Rain, Value: 0.2794, Time: now.Add(-ago), Source: "gpio17"}
	}
	h := openHub(t, path)
	if err := h.Record(ctx, sensors.Batch{Readings: []sensors.Reading{
		{Zone: "Bedroom", Measurement: sensors.Temperature, Value: 19.26, Time: now.Add(-time.Minute), Source: "i2c1/0x44"},
		{Zone: "Bedroom", Measurement: sensors.Humidity, Value: 45.4, Time: now.Add(-time.Minute), Source: "i2c1/0x44"},
		{Zone: "Attic", Measurement: sensors.Temperature, Value: 30, Time: now.Add(-20 * time.Minute), Source: "mqtt/attic"},
		{Zone: "Balcony", Measurement: sensors.Temperature, Value: 5, Time: now.Add(-time.Minute), Source: "mqtt/balcony"},
		{Zone: "Indoor", Measurement: sensors.Temperature, Value: 21.43, Time: now.Add(-time.Minute), Source: "demo/Indoor"},
		{Zone: "Shed", Measurement: sensors.Rain, Value: 1, Time: now.Add(-2 * time.Hour), Source: "mqtt/shed"},
		tip("Garden", 3*time.Hour), tip("Garden", 30*time.Minute),
	}}); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(ctx); err != nil { // a restart
		t.Fatal(err)
	}
	h = openHub(t, path)
	t.Cleanup(func() { h.Close(ctx) })
	h.Report(sensors.Status{Source: "mqtt/balcony", Zones: []string{"Balcony"}, Err: fmt.Errorf("last will: %w", sensors.ErrOffline)})
	if err := h.Record(ctx, sensors.Batch{Readings: []sensors.Reading{tip("Garden", 10*time.Minute)}}); err != nil { // uncommitted
		t.Fatal(err)
	}
	m := New()
	if err := m.WatchReadings(ctx, h, 0, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	if err := h.Record(ctx, sensors.Batch{Readings: []sensors.Reading{tip("Garden", 0)}}); err != nil {
		t.Fatal(err)
	}
	text := scrape(t, m)
	for sample, want := range map[string]float64{
		`climated_temperature_celsius{simulated="false",source="i2c1/0x44",zone="Bedroom"}`: 19.3,
		`climated_humidity_ratio{simulated="false",source="i2c1/0x44",zone="Bedroom"}`:      0.45,
		`climated_temperature_celsius{simulated="true",source="demo/Indoor",zone="Indoor"}`: 21.4,
		`climated_rain_meters_total{simulated="false",source="gpio17",zone="Garden"}`:       0.0011176, // 4 tips of 0.2794 mm
		`climated_rain_meters_total{simulated="false",source="mqtt/shed",zone="Shed"}`:      0.001,
	} {
		if got := metricValue(text, sample); got != want {
			t.Errorf("%s = %v, want %v", sample, got, want)
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "climated_temperature_celsius{") && (strings.Contains(line, `zone="Attic"`) || strings.Contains(line, `zone="Balcony"`)) {
			t.Errorf("a stale temperature is on /metrics: %s", line)
		}
	}
	if age := metricValue(text, `climated_reading_age_seconds{measurement="Temperature",simulated="false",source="mqtt/attic",zone="Attic"}`); age < 1200 || age > 1260 {
		t.Errorf("Attic's temperature is %v s old, want its 20 minutes", age)
	}
	if t.Failed() {
		t.Log(text)
	}
}

// metricValue finds one sample in Prometheus text, or -1.
func metricValue(text, sample string) float64 {
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(line, sample+" "); ok {
			var f float64
			if _, err := fmt.Sscan(v, &f); err == nil {
				return f
			}
		}
	}
	return -1
}
