package main

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/sensors"
)

// rainSince is the Garden's rain in the history from since on.
func rainSince(t *testing.T, h served, since time.Time) float64 {
	t.Helper()
	if err := h.Hub.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	s, err := h.Hub.Range(context.Background(), history.Query{Zone: "Garden", Measurement: sensors.Rain, From: since.Add(-time.Hour), To: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if s.Summary == nil || s.Summary.Sum == nil {
		return 0
	}
	return *s.Summary.Sum
}

// TestStationRainGlitches: two glitched sequences, uploaded a minute
// apart to a running hub. totalrainin 15.00, 15.01, 1e300, 15.02 recorded
// 381.762 mm where 0.508 mm fell (the absurd value moved the baseline, the
// fall back counted the whole counter); yearlyrainin corrected down,
// 10.00, 10.01, 9.90, 9.91, recorded 251.968 mm. Now: 0.508 mm each.
func TestStationRainGlitches(t *testing.T) {
	for field, values := range map[string][]string{
		"totalrainin":  {"15.00", "15.01", "1e300", "15.02"},
		"yearlyrainin": {"10.00", "10.01", "9.90", "9.91"},
	} {
		t.Run(field, func(t *testing.T) {
			cfg := stationHub(t)
			h := startHub(t, cfg)
			start := time.Now().Add(-10 * time.Minute).Truncate(time.Second)
			for i, v := range values {
				at := start.Add(time.Duration(i) * time.Minute)
				f := url.Values{"PASSKEY": {"K"}, "model": {"GW2000A"}, "dateutc": {at.UTC().Format("2006-01-02 15:04:05")}, "tempf": {"50"}, field: {v}}
				if code := postStation(t, h, cfg, f); code != http.StatusOK {
					t.Fatalf("upload %s=%s: %d", field, v, code)
				}
			}
			if got := rainSince(t, h, start); math.Abs(got-0.508) > 0.001 {
				t.Errorf("%s %v: %.3f mm recorded, want 0.508 (0.01 in twice)", field, values, got)
			}
		})
	}
}

// TestStationFutureUploadHidesNothing: an upload dated 14 minutes ahead,
// then three dated right as they come, a second apart: each of the three
// is the live value when it comes, and its rain is counted then (before,
// the one ahead stayed live for 14 minutes, the others hidden, their rain
// deferred).
func TestStationFutureUploadHidesNothing(t *testing.T) {
	cfg := stationHub(t)
	h := startHub(t, cfg)
	start := time.Now().Add(-time.Minute).Truncate(time.Second)
	send := func(at time.Time, tempf, yearly string) {
		t.Helper()
		f := url.Values{"PASSKEY": {"K"}, "model": {"GW2000A"}, "dateutc": {at.UTC().Format("2006-01-02 15:04:05")}, "tempf": {tempf}, "yearlyrainin": {yearly}}
		if code := postStation(t, h, cfg, f); code != http.StatusOK {
			t.Fatalf("upload at %v: %d", at, code)
		}
	}
	send(start, "50", "10.00")
	send(time.Now().Add(14*time.Minute), "51", "10.01") // a console's clock running fast
	for i, tempf := range []float64{52, 53, 54} {
		time.Sleep(1100 * time.Millisecond) // dateutc has whole seconds: the next is a second later
		send(time.Now(), fmt.Sprint(tempf), fmt.Sprintf("%.2f", 10.02+0.01*float64(i)))
		got, _ := h.Hub.Snapshot().Climate["Garden"]["Temperature"].(float64)
		if want := (tempf - 32) * 5 / 9; math.Abs(got-want) > 0.05 {
			t.Errorf("after the upload with %v °F the live Temperature is %v, want %.1f", tempf, got, want)
		}
	}
	if got := rainSince(t, h, start); math.Abs(got-4*0.254) > 0.001 {
		t.Errorf("%.3f mm recorded, want 1.016 (four times 0.01 in, none deferred)", got)
	}
}
