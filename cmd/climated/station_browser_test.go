package main

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/climated/climated/internal/testutil/chromium"
)

// TestStationInBrowser: two GW2000As' real uploads, POSTed to a running
// hub's station path, the second's outdoor array last, in chromium: on
// the dashboard the outdoor array's card has the wind panel, its compass
// naming where the upload's winddir (327°) comes from, NNW, and its arrow
// turned by it. The MCP Apps house view shows the same wind card (the
// script both share, internal/weathercard): NNW, the arrow turned by
// 327°, speed and gusts in km/h, the day's strongest gust at a time of
// day, every key as /api/climate has it, and the first upload's leak
// sensors as dry and water!; light and dark, within 380 px. No console
// error in either.
func TestStationInBrowser(t *testing.T) {
	browser := chromium.Browser(t)
	cfg := stationHub(t)
	h := startHub(t, cfg)
	now := time.Now()
	for _, up := range []struct {
		name string
		at   time.Time
	}{{"payload_gw2000a_1.json", now.Add(-time.Minute)}, {"payload_gw2000a_2.json", now}} {
		if code := postStation(t, h, cfg, stationForm(t, up.name, up.at)); code != http.StatusOK {
			t.Fatalf("upload of %s: %d", up.name, code)
		}
	}
	hub := fmt.Sprintf("http://%s", h.Addr)
	if got := apiClimate(t, hub)["Garden"]["WindAngle"]; got != "327" {
		t.Fatalf("the upload's wind from 327°: /api/climate says %q", got)
	}
	dir := chromium.Artifacts(t)
	t.Run("dashboard", func(t *testing.T) { stationDashboard(t, browser, hub, dir) })
	t.Run("house", func(t *testing.T) { stationHouseView(t, browser, hub, dir) })
	t.Run("history", func(t *testing.T) { stationHistoryView(t, browser, hub, dir) })
}

// stationHistoryView: get_history's view of the wind's direction draws
// the points the tool returned as points on a compass axis (a line would
// cross the chart at north), and says the vector mean as a compass point;
// the lightning's strikes as bars, in strikes. No console error.
func stationHistoryView(t *testing.T, browser context.Context, hub, dir string) {
	a := newAppsTab(t, browser, appsHost(t, hub))
	eval[string](t, a.ctx, `host.show("hist", "get_history", {zone: "Garden", measurement: "WindAngle"}, "light", "100%")`)
	v := a.view("hist")
	until(t, v, "the wind's chart", `document.getElementById("app").dataset.state === "ready"`)
	res := eval[map[string]any](t, a.ctx, `host.results.hist.structuredContent`)
	mean := res["summary"].(map[string]any)["mean"].(float64)
	point := compassPoints[int(math.Round(math.Mod(mean+360, 360)/22.5))%16]
	ds := eval[map[string]string](t, v, `Object.assign({}, document.getElementById("app").dataset)`)
	text := eval[string](t, v, `document.querySelector(".summary").textContent`)
	pts := res["points"].([]any)
	if ds["style"] != "points" || ds["drawn"] != fmt.Sprint(len(pts)) || !strings.Contains(text, "mean from "+point+" (") {
		t.Errorf("the wind's direction (mean %v°, %s): the view's %v, %q; want %d points drawn as points and the mean from %s", mean, point, ds, text, len(pts), point)
	}
	a.settle("hist")
	a.shot(dir, "station-history-wind.png")
	eval[string](t, a.ctx, `host.show("strikes", "get_history", {zone: "Station lightning", measurement: "Lightning"}, "light", "100%")`)
	s := a.view("strikes")
	until(t, s, "the strikes' chart", `document.getElementById("app").dataset.state === "ready"`)
	if got := eval[map[string]string](t, s, `({title: document.querySelector("h1").textContent, style: document.getElementById("app").dataset.style})`); !strings.HasSuffix(got["title"], "(strikes)") || got["style"] != "bars" {
		t.Errorf("the strikes' chart: %v, want bars in strikes", got)
	}
	a.check()
}

// stationDashboard: the Garden's wind panel on the hub's own dashboard.
func stationDashboard(t *testing.T, browser context.Context, hub, dir string) {
	ctx, cancel := chromedp.NewContext(browser)
	defer cancel()
	ctx, cancelTime := context.WithTimeout(ctx, time.Minute)
	defer cancelTime()
	var problems chromium.Problems
	if err := chromedp.Listen(ctx, problems.Event); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(380, 900), chromedp.Navigate(hub+"/")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector('.card[data-zone="Garden"] section.wind .compass') !== null`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("no wind panel on the Garden's card: %v %v", err, problems.Take())
	}
	got := eval[map[string]any](t, ctx, `(w => ({point: w.querySelector('.compass .point').textContent,
		angle: (m => Math.atan2(m.b, m.a) * 180 / Math.PI)(w.querySelector('.dial .arrow').transform.baseVal.consolidate().matrix),
		speed: w.querySelector('[data-key="WindStrength"]').dataset.value, wide: document.documentElement.scrollWidth > document.documentElement.clientWidth}))(document.querySelector('.card[data-zone="Garden"] section.wind'))`)
	t.Logf("the Garden's wind: %v", got)
	want := apiClimate(t, hub)["Garden"]["WindStrength"]
	if got["point"] != "NNW" || math.Abs(math.Mod(got["angle"].(float64)+360, 360)-327) > 0.5 || got["speed"] != want || got["wide"] != false {
		t.Errorf("the wind from 327° at %s km/h: the card shows %v", want, got)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "station-dashboard-380.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range problems.Take() {
		t.Error(p)
	}
}

// stationHouseView: get_climate's house view with the station's zones.
func stationHouseView(t *testing.T, browser context.Context, hub, dir string) {
	a := newAppsTab(t, browser, appsHost(t, hub))
	if uri := eval[string](t, a.ctx, `host.show("house", "get_climate", {}, "light", "100%")`); uri != "ui://climated/house" {
		t.Fatalf("get_climate's view: %q", uri)
	}
	v := a.view("house")
	until(t, v, "the cards", `document.getElementById("app").dataset.state === "ready"`)
	shown := eval[map[string]string](t, v, `Object.fromEntries([...document.querySelectorAll('.card[data-zone="Garden"] [data-key]')].map((e) => [e.dataset.key, e.dataset.value]))`)
	all := apiClimate(t, hub)
	api := all["Garden"]
	for _, key := range []string{"WindStrength", "GustStrength", "WindAngle", "max_wind_str", "max_wind_angle", "date_max_wind_str", "feels_like", "dew_point"} {
		if shown[key] != api[key] || api[key] == "" {
			t.Errorf("the house view's Garden %s: %q, /api/climate %q", key, shown[key], api[key])
		}
	}
	houseWind(t, v, api)
	houseLeaks(t, v, all)
	if err := chromedp.Do(a.ctx, chromedp.EmulateViewport(380, 900)); err != nil {
		t.Fatal(err)
	}
	until(t, v, "the house view in a narrow column", `window.innerWidth < 380`)
	until(t, v, "the house view fits", `document.documentElement.scrollWidth <= window.innerWidth`)
	light := houseWind(t, v, api)
	t.Logf("the house view's Garden at 380 px: %v", light)
	a.settle("house")
	a.shot(dir, "station-house-380.png")
	eval[bool](t, a.ctx, `host.theme("dark"), true`)
	until(t, v, "the house view turns dark", `document.documentElement.dataset.theme === "dark"`)
	until(t, v, "the dark house view fits", `document.documentElement.scrollWidth <= window.innerWidth`)
	dark := houseWind(t, v, api)
	if dark["bg"] == light["bg"] || dark["arrow"] == light["arrow"] || dark["arrow"] == dark["bg"] {
		t.Errorf("the wind's arrow in %s on %s in the light, %s on %s in the dark: want the theme's accent on its background",
			light["arrow"], light["bg"], dark["arrow"], dark["bg"])
	}
	a.settle("house")
	a.shot(dir, "station-house-380-dark.png")
	a.check()
}
