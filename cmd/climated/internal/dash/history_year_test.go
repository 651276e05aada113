package dash_test

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/dash"
	"github.com/climated/climated/history"
	"github.com/climated/climated/sensors"
)

// TestYearChartInLocalDays: over HTTP, a chart's year is one point per
// local day of the hub's time zone (Berlin, with its 23- and 25-hour
// days), at the day's midnight, with Daily's mean, lowest and highest of
// that day; its 30 days stay in buckets of the tiers.
func TestYearChartInLocalDays(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	ctx := context.Background()
	store := emptyStoreIn(t, berlin)
	now := time.Now()
	var rs []sensors.Reading
	for at := now.Add(-370 * 24 * time.Hour).Truncate(time.Hour); at.Before(now); at = at.Add(30 * time.Minute) {
		v := 12 + 9*math.Sin(float64(at.Unix())/86400/58) + 4*math.Sin(float64(at.Unix()%86400)/86400*2*math.Pi)
		rs = append(rs, sensors.Reading{Zone: "Garden", Measurement: sensors.Temperature, Value: math.Round(v*10) / 10, Time: at, Source: "test"})
	}
	if err := store.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
	if err := store.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	base := serve(t, "127.0.0.1", newDash(t, dash.StoreSource{Store: store}, nil))

	year := chartSeries(t, base, "1y")
	if year.Step != "1d" || year.Tier != "daily summaries" || len(year.Points) < 365 || len(year.Points) > 366 {
		t.Fatalf("a year: step %q, tier %q, %d points; want 1d from the daily summaries, 365 or 366 points", year.Step, year.Tier, len(year.Points))
	}
	days, err := store.Daily(ctx, "Garden", time.Unix(year.From, 0), now)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range year.Points {
		at := time.Unix(int64(p[0]), 0).In(berlin)
		st := days[i].Measurements["Temperature"]
		if at.Format("15:04") != "00:00" || at.Format(time.DateOnly) != days[i].Date || p[1] != st.Mean || p[2] != st.Min || p[3] != st.Max {
			t.Fatalf("point %v at %s; want %s's midnight with its mean, min and max %v %v %v", p, at, days[i].Date, st.Mean, st.Min, st.Max)
		}
	}
	if month := chartSeries(t, base, "30d"); month.Step == "1d" || month.Tier == "daily summaries" || len(month.Points) < 1000 {
		t.Errorf("30 days: step %q, tier %q, %d points; want the tiers' buckets as before", month.Step, month.Tier, len(month.Points))
	}
}

// chartSeries is the Garden's temperature over rng as a chart of 2,000
// pixels asks for it.
func chartSeries(t *testing.T, base, rng string) history.Series {
	t.Helper()
	res, err := http.Get(base + "/dash/history?zone=Garden&m=Temperature&range=" + rng + "&points=2000")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var s history.Series
	if err := json.NewDecoder(res.Body).Decode(&s); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("%s: %s %v", rng, res.Status, err)
	}
	return s
}

// TestYearChartNoMorePointsThanPixels: a year's chart as narrow as a
// year has days asks for 365 points and gets no more than that.
func TestYearChartNoMorePointsThanPixels(t *testing.T) {
	ctx := context.Background()
	store := emptyStoreIn(t, time.UTC)
	now := time.Now()
	var rs []sensors.Reading
	for at := now.Add(-370 * 24 * time.Hour).Truncate(time.Hour); at.Before(now); at = at.Add(time.Hour) {
		rs = append(rs, sensors.Reading{Zone: "Garden", Measurement: sensors.Temperature, Value: float64(at.Hour()), Time: at, Source: "test"})
	}
	if err := store.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
	if err := store.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	base := serve(t, "127.0.0.1", newDash(t, dash.StoreSource{Store: store}, nil))
	res, err := http.Get(base + "/dash/history?zone=Garden&m=Temperature&range=1y&points=365")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var s history.Series
	if err := json.NewDecoder(res.Body).Decode(&s); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("%s %v", res.Status, err)
	}
	if len(s.Points) > 365 {
		t.Errorf("%d points at %s from %s; want at most the 365 asked", len(s.Points), s.Step, s.Tier)
	}
}
