package main

import (
	"net/http"
	"testing"
	"time"

	"github.com/climated/climated/sensors/station"
)

// TestDemoLeavesWhenStationComes: a hub that ran the demo house (a day of
// its history) started again with a station, as stations.md's example
// names it (channel1: Bedroom), shows none of the demo's zones, and its
// Bedroom holds the station's readings only: no simulated CO₂ or battery.
func TestDemoLeavesWhenStationComes(t *testing.T) {
	cfg := demoConfig(t)
	cfg.Station = &station.Config{Zones: map[string]string{"outdoor": "Garden", "console": "Hall", "channel1": "Bedroom"}}
	h := startHub(t, cfg)
	for _, zone := range []string{"Indoor", "Balcony", "Rain", "Bedroom"} {
		if _, ok := h.Hub.Snapshot().Climate[zone]; ok {
			t.Errorf("the demo's zone %s is still shown with a station configured: %v", zone, h.Hub.Snapshot().Climate[zone])
		}
	}
	if code := postStation(t, h, cfg, stationForm(t, "payload_gw2000a_2.json", time.Now())); code != http.StatusOK {
		t.Fatalf("upload: %d", code)
	}
	bed := h.Hub.Snapshot().Climate["Bedroom"]
	if _, ok := bed["Temperature"]; !ok {
		t.Fatalf("the station's Bedroom has no temperature: %v", bed)
	}
	// The station sends batt1: the battery_percent is its own.
	for _, key := range []string{"CO2", "battery_vp", "rf_status"} {
		if v, ok := bed[key]; ok {
			t.Errorf("Bedroom mixes the demo's simulated %s (%v) with the station's readings", key, v)
		}
	}
}
