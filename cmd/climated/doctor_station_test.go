package main

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/doctor"
)

// TestDoctorStation: with a station configured, doctor says no upload
// came yet; after a GW2000A's real upload to the running hub, it names
// the upload and what it brought; it never says the demo house will run.
func TestDoctorStation(t *testing.T) {
	cfg := stationHub(t)
	cfg.Listen = "0.0.0.0:0"
	h := startHub(t, cfg)
	run := func() string {
		var b bytes.Buffer
		doctor.Run(context.Background(), cfg, doctor.Env{Run: func(context.Context, string, ...string) (string, error) { return "", nil }}, false, &b)
		return b.String()
	}
	before := run()
	if !strings.Contains(before, "no upload from a station in the history yet") {
		t.Errorf("doctor before any upload:\n%s", before)
	}
	if code := postStation(t, h, cfg, stationForm(t, "payload_gw2000a_2.json", time.Now())); code != http.StatusOK {
		t.Fatalf("upload: %d", code)
	}
	if err := h.Hub.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	after := run()
	if !strings.Contains(after, "OK    station  last upload") || !strings.Contains(after, "Garden (GustStrength, Humidity") || !strings.Contains(after, "Bedroom (") {
		t.Errorf("doctor after an upload does not name it:\n%s", after)
	}
	if strings.Contains(after, "demo house") {
		t.Errorf("doctor speaks of the demo house with a station configured:\n%s", after)
	}
}
