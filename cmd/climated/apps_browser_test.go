package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/climated/climated/internal/testutil/chromium"
)

// TestAppsViewsInBrowser: the official host side of MCP Apps, ext-apps'
// AppBridge, in Debian's chromium, connected to a running demo hub, calls
// get_history and get_climate as a chat client does and shows each view in
// a sandboxed frame: the chart draws the points the tool returned, a range
// switch in the view calls the app-only view_history through the host and
// redraws, the cards show /api/climate's values, the theme follows the
// host's, a range without readings says so, and the views fit a narrow
// column. Screenshots (light, dark, narrow) go to $CLIMATED_ARTIFACTS, else
// the test's temporary directory.
func TestAppsViewsInBrowser(t *testing.T) {
	browser := chromium.Browser(t)
	h, _ := runHub(t, demoConfig(t))
	hub := fmt.Sprintf("http://%s", h.Addr)
	a := newAppsTab(t, browser, appsHost(t, hub))
	dir := chromium.Artifacts(t)
	if models := eval[[]string](t, a.ctx, `host.modelTools`); slices.Contains(models, "view_history") || !slices.Contains(models, "get_history") {
		t.Errorf("the tools a model sees: %v", models)
	}
	checkHistoryView(t, a)
	checkRangeSwitch(t, a)
	checkZoomAndReadout(t, a)
	checkMeasurementSwitch(t, a)
	checkBand(t, a)
	checkHouseView(t, a, hub)
	a.settle("hist", "house")
	a.shot(dir, "apps-light.png")
	checkTheme(t, a)
	a.shot(dir, "apps-dark.png")
	checkNoReadings(t, a)
	checkNarrow(t, a)
	a.settle("hist", "house") // the empty view is below the fold, where chromium pauses a frame
	a.shot(dir, "apps-narrow.png")
	a.check()
	t.Logf("screenshots in %s", dir)
}

// checkHistoryView: the chart has the points get_history returned.
func checkHistoryView(t *testing.T, a *appsTab) {
	uri := eval[string](t, a.ctx, `host.show("hist", "get_history", {zone: "Indoor", measurement: "Temperature"}, "light", "100%")`)
	if uri != "ui://climated/history" {
		t.Fatalf("get_history's view: %q", uri)
	}
	v := a.view("hist")
	until(t, v, "the chart", `document.getElementById("app").dataset.state === "ready"`)
	pts := eval[[][]float64](t, a.ctx, `host.results.hist.structuredContent.points`)
	if len(pts) < 10 {
		t.Fatalf("get_history returned %d points of the demo day", len(pts))
	}
	checkChart(t, v, pts)
	if badge := eval[string](t, v, `document.querySelector(".badge.demo").textContent`); badge != "simulated" {
		t.Errorf("the demo house's chart says %q", badge)
	}
}

// checkChart: the chart in v draws pts: their count, first and last
// value, on a canvas.
func checkChart(t *testing.T, v context.Context, pts [][]float64) {
	t.Helper()
	ds := eval[map[string]string](t, v, `Object.assign({}, document.getElementById("app").dataset)`)
	want := map[string]string{"points": fmt.Sprint(len(pts)), "drawn": fmt.Sprint(len(pts)),
		"first": jsNumber(pts[0][1]), "last": jsNumber(pts[len(pts)-1][1])}
	for k, w := range want {
		if ds[k] != w {
			t.Errorf("the chart's %s: %q, want %q (%v)", k, ds[k], w, ds)
		}
	}
	if n := eval[int](t, v, `document.querySelectorAll(".plot canvas").length`); n == 0 {
		t.Error("the chart has no canvas")
	}
}

// jsNumber is v as JavaScript's String(v) writes it.
func jsNumber(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// checkRangeSwitch: the view's 7-day switch calls view_history through
// the host and draws what it returned.
func checkRangeSwitch(t *testing.T, a *appsTab) {
	v := a.view("hist")
	eval[bool](t, v, `document.querySelector('button[data-range="7d"]').click(), true`)
	until(t, v, "the 7-day chart", `document.getElementById("app").dataset.range === "7d" && document.getElementById("app").dataset.state === "ready"`)
	calls := eval[[]string](t, a.ctx, `host.calls`)
	if want := `view_history {"zone":"Indoor","measurement":"Temperature","range":"7d"}`; !slices.Contains(calls, want) {
		t.Errorf("the view's calls through the host: %v, want %s", calls, want)
	}
	pts := eval[[][]float64](t, a.ctx, `host.viewResults.at(-1).structuredContent.points`)
	checkChart(t, v, pts)
	if pressed := eval[string](t, v, `document.querySelector('button[aria-pressed="true"]').dataset.range`); pressed != "7d" {
		t.Errorf("pressed switch %q after 7 days", pressed)
	}
}

// checkBand: the year's range is read from a coarse tier, whose points
// carry min and max: the view draws them as a band around the mean, with
// every point the tool returned.
func checkBand(t *testing.T, a *appsTab) {
	v := a.view("hist")
	eval[bool](t, v, `document.querySelector('button[data-range="1y"]').click(), true`)
	until(t, v, "the year's chart", `document.getElementById("app").dataset.range === "1y" && document.getElementById("app").dataset.state !== "loading"`)
	res := eval[map[string]any](t, a.ctx, `host.viewResults.at(-1).structuredContent`)
	cols, _ := res["columns"].([]any)
	if res["tier"] == "raw" || len(cols) != 4 {
		t.Fatalf("the year's history: tier %v, columns %v; want a coarse tier with min and max", res["tier"], cols)
	}
	pts := eval[[][]float64](t, a.ctx, `host.viewResults.at(-1).structuredContent.points`)
	ds := eval[map[string]string](t, v, `Object.assign({}, document.getElementById("app").dataset)`)
	if ds["state"] != "ready" || ds["band"] != "min-max" || ds["drawn"] != fmt.Sprint(len(pts)) {
		t.Errorf("the year's chart: %v, want the %d points drawn with a min-max band", ds, len(pts))
	}
}

// checkHouseView: the cards show the values /api/climate serves, with the
// demo house's "simulated".
func checkHouseView(t *testing.T, a *appsTab, hub string) {
	if uri := eval[string](t, a.ctx, `host.show("house", "get_climate", {}, "light", "100%")`); uri != "ui://climated/house" {
		t.Fatalf("get_climate's view: %q", uri)
	}
	v := a.view("house")
	until(t, v, "the cards", `document.getElementById("app").dataset.state === "ready"`)
	shown := eval[map[string]map[string]string](t, v, `Object.fromEntries([...document.querySelectorAll(".card")].map((c) =>
		[c.dataset.zone, Object.fromEntries([...c.querySelectorAll("[data-key]")].map((e) => [e.dataset.key, e.dataset.value]))]))`)
	api := apiClimate(t, hub)
	if len(shown) != len(api) || len(api) < 4 {
		t.Fatalf("cards of zones %v, /api/climate has %d zones", slices.Sorted(maps.Keys(shown)), len(api))
	}
	compared := 0
	for zone, want := range api {
		got := shown[zone]
		if got["When"] != want["When"] {
			continue // the zone had a reading between the call and the API's answer
		}
		compared++
		for key, value := range got {
			if want[key] != value {
				t.Errorf("%s %s: the card shows %s, /api/climate %s", zone, key, value, want[key])
			}
		}
		if got["Temperature"] == "" && want["Temperature"] != "" {
			t.Errorf("%s: no temperature on the card", zone)
		}
	}
	if compared == 0 {
		t.Error("no zone stood still long enough to compare")
	}
	if badge := eval[string](t, v, `document.querySelector(".badge.demo").textContent`); badge != "simulated" {
		t.Errorf("the demo house's cards say %q", badge)
	}
	checkAmounts(t, v)
}

// checkAmounts: the rain gauge's card writes its rain and the sums of the
// last hour and day to the catalogue's three decimals without the zeros
// they pad with, as the dashboard writes an amount's total: "0", not
// "0.000".
func checkAmounts(t *testing.T, v context.Context) {
	t.Helper()
	shown := eval[[][]string](t, v, `[...document.querySelectorAll('.card[data-zone="Rain"] [data-key]')].filter((e) => /^(Rain|sum_rain_1|sum_rain_24)$/.test(e.dataset.key)).map((e) => [e.dataset.key, e.dataset.value, e.textContent])`)
	if len(shown) != 3 {
		t.Fatalf("the rain gauge's card shows %v, want Rain, sum_rain_1 and sum_rain_24", shown)
	}
	for _, s := range shown {
		f, err := strconv.ParseFloat(s[1], 64)
		if err != nil {
			t.Fatalf("%s: %v", s[0], err)
		}
		if want := jsNumber(math.Round(f*1000) / 1000); s[2] != want {
			t.Errorf("the rain gauge's %s %s is written %q, want %q", s[0], s[1], s[2], want)
		}
	}
}

// apiClimate is /api/climate with every value as JavaScript's String().
func apiClimate(t *testing.T, hub string) map[string]map[string]string {
	t.Helper()
	resp, err := http.Get(hub + "/api/climate")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var raw map[string]map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&raw); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]string{}
	for zone, z := range raw {
		out[zone] = map[string]string{}
		for k, v := range z {
			if f, ok := v.(float64); ok {
				out[zone][k] = jsNumber(f)
			} else {
				out[zone][k] = fmt.Sprint(v)
			}
		}
	}
	return out
}

// checkTheme: a host-context-changed to dark turns both views dark.
func checkTheme(t *testing.T, a *appsTab) {
	bg := `getComputedStyle(document.body).backgroundColor`
	light := eval[string](t, a.view("hist"), bg)
	eval[bool](t, a.ctx, `host.theme("dark"), true`)
	for _, name := range []string{"hist", "house"} {
		until(t, a.view(name), name+" turns dark", `document.documentElement.dataset.theme === "dark"`)
	}
	if dark := eval[string](t, a.view("hist"), bg); dark == light {
		t.Errorf("the background stayed %s in the dark", dark)
	}
	until(t, a.view("hist"), "the chart drawn again", `document.querySelectorAll(".plot canvas").length > 0`)
}

// checkNoReadings: a history of a range without readings says so.
func checkNoReadings(t *testing.T, a *appsTab) {
	eval[string](t, a.ctx, `host.show("empty", "get_history", {zone: "Bedroom", measurement: "Temperature", from: "2001-01-01", to: "2001-01-02"}, "dark", "100%")`)
	v := a.view("empty")
	until(t, v, "no readings", `document.getElementById("app").dataset.state === "empty"`)
	if text := eval[string](t, v, `document.body.innerText`); !strings.Contains(text, "No readings of Temperature in Bedroom") {
		t.Errorf("the view of a range without readings says %q", text)
	}
}

// checkNarrow: in a column of a phone's width the views fit without
// scrolling sideways.
func checkNarrow(t *testing.T, a *appsTab) {
	if err := chromedp.Do(a.ctx, chromedp.EmulateViewport(380, 900)); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"hist", "house"} {
		v := a.view(name)
		until(t, v, name+" in a narrow column", `window.innerWidth < 380`)
		until(t, v, name+" fits", `document.documentElement.scrollWidth <= window.innerWidth`)
	}
	until(t, a.view("hist"), "the chart as wide as the column", `document.querySelector(".plot canvas").getBoundingClientRect().width <= window.innerWidth`)
}

// checkZoomAndReadout: the pointer over the chart reads out a value the
// tool returned, and dragging across it zooms in.
func checkZoomAndReadout(t *testing.T, a *appsTab) {
	v := a.view("hist")
	pts := eval[[][]float64](t, a.ctx, `host.viewResults.at(-1).structuredContent.points`)
	before := eval[map[string]string](t, v, `Object.assign({}, document.getElementById("app").dataset)`)
	// Synthetic pointer events on uPlot's overlay, at 50 % and then from
	// 25 % to 75 % of its width, each in a frame of its own and moving
	// (uPlot ignores a drag's moves that do not move).
	readout := eval[string](t, v, `(async () => {
		const over = document.querySelector(".u-over"), r = over.getBoundingClientRect(), y = r.top + r.height / 2;
		const frame = () => new Promise((done) => requestAnimationFrame(done));
		const at = async (el, type, f) => {
			el.dispatchEvent(new MouseEvent(type, { clientX: r.left + r.width * f, clientY: y, bubbles: true, button: 0, buttons: 1, movementX: 1 }));
			await frame();
		};
		await at(over, "mouseenter", 0.5); await at(over, "mousemove", 0.5);
		const text = document.querySelectorAll(".u-legend .u-value")[1].textContent;
		await at(over, "mousemove", 0.25); await at(over, "mousedown", 0.25);
		await at(over, "mousemove", 0.5); await at(over, "mousemove", 0.75); await at(document, "mouseup", 0.75);
		return text;
	})()`)
	found := false
	for _, p := range pts {
		found = found || strings.TrimSuffix(readout, " °C") == jsNumber(p[1]) || readout == jsNumber(p[1])
	}
	if !found {
		t.Errorf("the read-out at the middle says %q, no value the tool returned", readout)
	}
	after := eval[map[string]string](t, v, `Object.assign({}, document.getElementById("app").dataset)`)
	if after["xMin"] <= before["xMin"] || after["xMax"] >= before["xMax"] {
		t.Errorf("dragging did not zoom in: x from %s–%s to %s–%s", before["xMin"], before["xMax"], after["xMin"], after["xMax"])
	}
}

// checkMeasurementSwitch: choosing CO₂ in the view asks the hub for it.
func checkMeasurementSwitch(t *testing.T, a *appsTab) {
	v := a.view("hist")
	eval[bool](t, v, `(() => { const s = document.querySelector("select"); s.value = "CO2"; s.dispatchEvent(new Event("change")); return true; })()`)
	until(t, v, "the CO₂ chart", `document.getElementById("app").dataset.measurement === "CO2" && document.getElementById("app").dataset.state === "ready"`)
	if want := `view_history {"zone":"Indoor","measurement":"CO2","range":"7d"}`; !slices.Contains(eval[[]string](t, a.ctx, `host.calls`), want) {
		t.Errorf("the view's calls lack %s", want)
	}
	checkChart(t, v, eval[[][]float64](t, a.ctx, `host.viewResults.at(-1).structuredContent.points`))
}
