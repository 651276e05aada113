package main

import (
	"context"
	"encoding/json"
	"math"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/internal/testutil"
)

// TestOutdoorsServed: with location: and degree_day_base: configured,
// the served hub's daily summaries of the demo's Balcony (outdoors by
// its name) have the day's sunrise, sunset and daylight and its degree
// days, HDD = max(0, base − mean) of the day's mean temperature in the
// same answer; Indoor's have neither.
func TestOutdoorsServed(t *testing.T) {
	cfg := testConfig(t)
	lat, lon := 52.52, 13.40
	cfg.Place, cfg.DegreeDayBase, cfg.Timezone = &config.PlaceConfig{Latitude: &lat, Longitude: &lon}, 20, "Europe/Berlin"
	h := startHub(t, cfg)
	ctx := context.Background()
	cs := connectHTTP(t, ctx, "http://"+h.Addr.String()+"/mcp")
	type day struct {
		Date                      string
		Measurements              map[string]struct{ Mean float64 }
		HDD, CDD                  *float64
		Sunrise, Sunset, Daylight string
	}
	read := func(zone string) []day {
		t.Helper()
		var got struct{ Days []day }
		testutil.WaitWithin(t, 30*time.Second, "a daily summary of "+zone, func() bool {
			res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "climate://daily/" + zone + "?from=24h&measurements=Temperature"})
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(res.Contents[0].Text), &got); err != nil {
				t.Fatal(err)
			}
			return len(got.Days) > 0
		})
		return got.Days
	}
	for _, d := range read("Balcony") {
		mean := d.Measurements["Temperature"].Mean
		want := math.Round(max(0, 20-mean)*10) / 10
		if d.HDD == nil || d.CDD == nil || math.Abs(*d.HDD-want) > 0.051 || *d.HDD > 0 && *d.CDD != 0 {
			t.Errorf("Balcony %s: mean %g °C, hdd %v cdd %v; want hdd %g against a base of 20", d.Date, mean, d.HDD, d.CDD, want)
		}
		if len(d.Sunrise) != 5 || len(d.Sunset) != 5 || d.Daylight == "" {
			t.Errorf("Balcony %s: sunrise %q, sunset %q, daylight %q", d.Date, d.Sunrise, d.Sunset, d.Daylight)
		}
	}
	for _, d := range read("Indoor") {
		if d.HDD != nil || d.Sunrise != "" {
			t.Errorf("Indoor %s: hdd %v, sunrise %q: an indoor zone's day has neither", d.Date, d.HDD, d.Sunrise)
		}
	}
}
