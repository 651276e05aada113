package mcp

import (
	"context"
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/sensors"
)

// stationHub is a hub with a weather station's zone, Station (its name
// says nothing: its wind, UV and rain make it outdoors), and Indoor,
// over the last three hours: the wind from 350° and 10° by turns, a gust
// of 61 km/h, a UV index up to 9, rain up to 12.6 mm/h, and 33.5 °C,
// beating the 30 °C of 400 days ago (the day after was 5 °C).
func stationHub(t *testing.T) (*testHub, time.Time) {
	t.Helper()
	ctx := context.Background()
	store, err := hub.Open(ctx, filepath.Join(t.TempDir(), "h.db"), &history.Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().Truncate(time.Minute)
	gust := now.Add(-90 * time.Minute)
	r := func(zone string, m sensors.Measurement, at time.Time, v float64) sensors.Reading {
		return sensors.Reading{Zone: zone, Measurement: m, Value: v, Time: at, Source: "test"}
	}
	rs := []sensors.Reading{r("Station", sensors.Temperature, now.AddDate(0, 0, -400), 30), r("Station", sensors.Temperature, now.AddDate(0, 0, -399), 5)}
	for i := range 18 {
		at := now.Add(time.Duration(i-18) * 10 * time.Minute)
		rs = append(rs,
			r("Station", sensors.Temperature, at, 24+float64(i%4)), r("Station", sensors.Humidity, at, 40),
			r("Station", sensors.WindStrength, at, 12), r("Station", sensors.WindAngle, at, []float64{350, 10}[i%2]),
			r("Station", sensors.GustStrength, at, 20+float64(i%3)), r("Station", sensors.UV, at, []float64{2, 5, 9, 7}[i%4]),
			r("Station", sensors.RainRate, at, []float64{0, 4.2, 12.6, 3}[i%4]), r("Station", sensors.Rain, at, 0.2),
			r("Indoor", sensors.Temperature, at, 21))
	}
	rs = append(rs, r("Station", sensors.GustStrength, gust.Add(time.Second), 61), r("Station", sensors.Temperature, now.Add(-time.Hour+time.Second), 33.5))
	if err := store.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
	if err := store.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	srv := New(t.Context(), store, &Options{Zones: []string{"Indoor", "Station"}, Location: time.UTC, Version: "test"})
	t.Cleanup(func() {
		srv.Close()
		store.Close(context.Background())
	})
	return &testHub{store: store, srv: srv}, gust.Add(time.Second)
}

// TestWeatherPrompt asks for the weather report through a client: it is
// about the station's zone only, and its digest gives the wind's vector
// mean (350° and 10° make north, not south), the strongest gust with its
// time, the UV index's WHO category, the heaviest rain, what it feels
// like, and the record broken with the one it beat.
func TestWeatherPrompt(t *testing.T) {
	h, gust := stationHub(t)
	cs := h.inMemory(t, nil)
	text, embedded := promptText(t, cs, "weather_report", map[string]string{"period": "last_24h"})
	for _, w := range []string{
		"- Station: ", "wind from N (0°, the vector mean", "strongest gust 61 km/h at " + gust.UTC().Format("15:04"),
		"UV index up to 9 at ", ": very high (WHO)", "heaviest rain 12.6 mm/h", "rain 3.6 mm", "feels like ",
		"records broken: Temperature ever max record 33.5 °C (", "was 30 on " + time.Now().AddDate(0, 0, -400).UTC().Format(time.DateOnly),
	} {
		if !strings.Contains(text, w) {
			t.Errorf("the weather report lacks %q:\n%s", w, text)
		}
	}
	if strings.Contains(text, "Indoor") {
		t.Errorf("the weather report is about an indoor zone:\n%s", text)
	}
	// Over a week or a month the facts come from the daily summaries
	// (the first day's hours before the period from the tiers): the same,
	// with a gust a minute before the last 7 days in the last 30 only.
	early := gust.Add(90*time.Minute).AddDate(0, 0, -7).Add(-time.Minute)
	if err := h.store.Record(context.Background(), sensors.Batch{Readings: []sensors.Reading{{Zone: "Station", Measurement: sensors.GustStrength, Value: 99, Time: early, Source: "test"}}}); err != nil {
		t.Fatal(err)
	}
	if err := h.store.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	for period, strongest := range map[string]string{
		"last_7_days":  "strongest gust 61 km/h at " + gust.UTC().Format("Mon 2 Jan 15:04"),
		"last_30_days": "strongest gust 99 km/h at " + early.UTC().Format("Mon 2 Jan 15:04"),
	} {
		text, _ := promptText(t, cs, "weather_report", map[string]string{"period": period})
		for _, w := range []string{"wind from N (0°", strongest, "UV index up to 9 at ", "heaviest rain 12.6 mm/h", "rain 3.6 mm"} {
			if !strings.Contains(text, w) {
				t.Errorf("the weather report over %s lacks %q:\n%s", period, w, text)
			}
		}
	}
	if got := slices.Sorted(maps.Keys(embedded)); !slices.Equal(got, []string{"climate://zone/Station"}) {
		t.Errorf("embeds %v", got)
	}
	_, embedded = promptText(t, cs, "weather_report", map[string]string{"zone": "Station", "period": "last_7_days"})
	for _, period := range []string{"last_24h", "last_7_days"} {
		n := tokens(promptContent(t, cs, "weather_report", map[string]string{"period": period}))
		t.Logf("weather_report, whole house, %s: %d tokens, budget %d", period, n, budgetWeatherReport)
		if n > budgetWeatherReport {
			t.Errorf("weather_report over %s: %d tokens, over the budget of %d", period, n, budgetWeatherReport)
		}
	}
	if _, ok := embedded["climate://daily/Station?from=7d&measurements=Temperature%2CRain%2CGustStrength%2CUV&to=now"]; !ok {
		t.Errorf("over 7 days embeds %v, not the daily summaries", slices.Sorted(maps.Keys(embedded)))
	}
	_, err := cs.GetPrompt(context.Background(), &sdk.GetPromptParams{Name: "weather_report", Arguments: map[string]string{"zone": "Indoor"}})
	if err == nil || !strings.Contains(err.Error(), `zone "Indoor": the outdoor zones (wind, sun, UV, rain or lightning) are Station`) {
		t.Errorf("Indoor: %v", err)
	}
}

// TestRecordsResource reads a zone's records and those set since 24h
// through a client: the ever maximum of 30 °C 400 days ago beaten today.
func TestRecordsResource(t *testing.T) {
	h, _ := stationHub(t)
	cs := h.inMemory(t, nil)
	read := func(uri string) history.Records {
		t.Helper()
		res, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		var r history.Records
		if err := json.Unmarshal([]byte(res.Contents[0].Text), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	all := read("climate://records/Station")
	temp := all.Measurements["Temperature"]
	if temp.Ever.Max != 33.5 || temp.Ever.Min == nil || *temp.Ever.Min != 5 || all.Measurements["WindAngle"] != (history.MeasurementRecords{}) {
		t.Errorf("records: %+v", all)
	}
	since := read("climate://records/Station?since=24h")
	if len(since.Broken) != 1 || since.Broken[0].Record != "ever max" || since.Broken[0].Was != 30 {
		t.Errorf("broken since 24h: %+v", since.Broken)
	}
	if _, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: "climate://records/Station?from=24h"}); err == nil {
		t.Error("records with from: no error")
	}
}

// TestWeatherPromptWithoutOutdoors: a house without an outdoor zone gets
// a weather report that says so, and no digest.
func TestWeatherPromptWithoutOutdoors(t *testing.T) {
	ctx := context.Background()
	store, err := hub.Open(ctx, filepath.Join(t.TempDir(), "h.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Record(ctx, sensors.Batch{Readings: []sensors.Reading{{Zone: "Indoor", Measurement: sensors.Temperature, Value: 21, Time: time.Now(), Source: "test"}}}); err != nil {
		t.Fatal(err)
	}
	srv := New(t.Context(), store, &Options{Zones: []string{"Indoor"}, Version: "test"})
	t.Cleanup(func() {
		srv.Close()
		store.Close(context.Background())
	})
	text, embedded := promptText(t, (&testHub{store: store, srv: srv}).inMemory(t, nil), "weather_report", nil)
	if !strings.Contains(text, "There are no outdoor zones (wind, sun, UV, rain or lightning) yet: say so.") || strings.Contains(text, "Digest") || len(embedded) != 0 {
		t.Errorf("without outdoor zones: %s\nembeds %v", text, embedded)
	}
}
