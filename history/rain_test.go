package history

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestRainAtGaugeResolution: rain keeps the resolution of its gauge, three
// decimals at most, in the structure, in range queries and in exports: a
// single 0.2794 mm tip reads 0.279, not 0.3; three read 0.838, not 0.8.
// Garden's readings come unrounded (0.2794, as an MQTT source may send
// them); Rain's as the gauge records them (0.279, 0.280, 0.279).
func TestRainAtGaugeResolution(t *testing.T) {
	t0 := time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC)
	rs := every("Garden", sensors.Rain, t0, 3, 5*time.Minute, func(int) float64 { return 0.2794 })
	rs = append(rs, every("Rain", sensors.Rain, t0, 3, 5*time.Minute, func(i int) float64 { return []float64{0.279, 0.280, 0.279}[i] })...)
	rs = append(rs, every("Tip", sensors.Rain, t0, 1, 5*time.Minute, func(int) float64 { return 0.2794 })...)
	now := t0.Add(15 * time.Minute)
	s := storeWith(t, time.UTC, now, rs)
	ctx := context.Background()

	structure := snapshotOf(t, s).Climate
	for zone, want := range map[string][3]float64{
		"Tip":    {0.279, 0.279, 0.279},
		"Garden": {0.279, 0.838, 0.838},
		"Rain":   {0.279, 0.838, 0.838},
	} {
		z := structure[zone]
		f := func(k string) float64 { v, _ := z[k].(float64); return v }
		if got := [3]float64{f("Rain"), f(sensors.KeySumRain1), f(sensors.KeySumRain24)}; got != want {
			t.Errorf("%s: Rain, sum_rain_1, sum_rain_24 = %v, want %v", zone, got, want)
		}
	}

	got, err := s.Range(ctx, Query{Zone: "Garden", Measurement: sensors.Rain, From: t0, To: now, Step: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if got.Summary.Sum == nil || *got.Summary.Sum != 0.838 || got.Summary.Mean != 0.279 || got.Summary.Max != 0.279 {
		t.Errorf("summary %+v (sum %v), want sum 0.838, mean and max 0.279", *got.Summary, got.Summary.Sum)
	}
	for _, p := range got.Points {
		if p[1] != 0.279 {
			t.Errorf("point %v, want 0.279", p)
		}
	}

	var csv bytes.Buffer
	if _, err := s.Export(ctx, &csv, Export{Measurement: sensors.Rain}); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(csv.String()), "\n")[1:] {
		f := strings.Split(line, ",")
		if v := f[3]; v != "0.279" && v != "0.28" {
			t.Errorf("exported %q: value %s, want 0.279 or 0.28", line, v)
		}
	}
	var js bytes.Buffer
	if _, err := s.Export(ctx, &js, Export{Zone: "Tip", Format: "json"}); err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(js.Bytes(), &rows); err != nil || len(rows) != 1 || rows[0]["value"] != 0.279 {
		t.Errorf("json export %s (%v), want one row of 0.279", js.String(), err)
	}
}
