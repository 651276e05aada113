package dash_test

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"testing"
	"time"
)

// historyAnswer is /dash/history's answer, as the test reads it.
type historyAnswer struct {
	Tier    string          `json:"tier"`
	Columns []string        `json:"columns"`
	Points  [][]float64     `json:"points"`
	Summary json.RawMessage `json:"summary"`
}

// openStationChart clicks the Garden's value of m and waits for its 24-h
// chart; it returns the chart's selector and what the history API answers
// to the page's own question (its request, asked again).
func openStationChart(t *testing.T, tb *tab, base, m string) (string, historyAnswer) {
	t.Helper()
	views[1].apply(t, tb)
	sel := `section.chart[data-zone="Garden"][data-m="` + m + `"]`
	eval[bool](t, tb, `(document.querySelector('.card[data-zone="Garden"] [data-key="`+m+`"]').closest('.value').click(), true)`)
	waitFor(t, tb, `(c => c && c.dataset.state === 'ready')(document.querySelector('`+sel+`'))`, 20*time.Second)
	asked := eval[string](t, tb, `performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('/dash/history?') && new URL(n).searchParams.get('m') === '`+m+`').pop()`)
	u, err := url.Parse(asked)
	if err != nil || u.Query().Get("range") != "24h" {
		t.Fatalf("the page asked %q for %s's chart", asked, m)
	}
	res, err := http.Get(base + "/dash/history?" + u.RawQuery)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var ans historyAnswer
	if err := json.NewDecoder(res.Body).Decode(&ans); err != nil {
		t.Fatal(err)
	}
	if len(ans.Points) < 100 {
		t.Fatalf("%s: the history answered %d points of a day every 5 minutes", m, len(ans.Points))
	}
	return sel, ans
}

// plotted reads a chart's canvas where each point should be drawn
// (within 2 px): for each point, whether a pixel there has the accent's
// colour. It maps times and values to pixels by the chart's own limits
// (data-x-min … data-y-max) over its plotting area (.u-over).
const plottedJS = `((sel, pts) => {
	const c = document.querySelector(sel), over = c.querySelector('.u-over'), cv = c.querySelector('canvas');
	const d = c.dataset, ctx = cv.getContext('2d'), k = cv.width / cv.getBoundingClientRect().width;
	const img = ctx.getImageData(0, 0, cv.width, cv.height);
	const probe = document.createElement('i'); probe.style.color = getComputedStyle(document.documentElement).getPropertyValue('--accent'); c.append(probe);
	const accent = getComputedStyle(probe).color.match(/[0-9]+/g).map(Number); probe.remove();
	const near = (x, y) => { const i = (Math.round(y * k) * cv.width + Math.round(x * k)) * 4;
		return Math.abs(img.data[i] - accent[0]) + Math.abs(img.data[i + 1] - accent[1]) + Math.abs(img.data[i + 2] - accent[2]) < 60 && img.data[i + 3] > 200; };
	const at = (t, v) => [over.offsetLeft + (t - d.xMin) / (d.xMax - d.xMin) * over.clientWidth, over.offsetTop + (1 - (v - d.yMin) / (d.yMax - d.yMin)) * over.clientHeight];
	const hit = (x, y) => { for (let dx = -2; dx <= 2; dx++) for (let dy = -2; dy <= 2; dy++) if (near(x + dx, y + dy)) return true; return false; };
	return pts.map(([t, v]) => hit(...at(t, v)));
})`

// painted counts the pixels of the accent's colour on a chart's canvas,
// over a band of values [lo, hi] at the middle between times t1 and t2.
const paintedBetweenJS = `((sel, t1, t2, lo, hi) => {
	const c = document.querySelector(sel), over = c.querySelector('.u-over'), cv = c.querySelector('canvas'), d = c.dataset;
	const k = cv.width / cv.getBoundingClientRect().width, img = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height);
	const x = Math.round((over.offsetLeft + ((t1 + t2) / 2 - d.xMin) / (d.xMax - d.xMin) * over.clientWidth) * k);
	const y = (v) => Math.round((over.offsetTop + (1 - (v - d.yMin) / (d.yMax - d.yMin)) * over.clientHeight) * k);
	let n = 0;
	for (let py = y(hi); py <= y(lo); py++) { const i = (py * cv.width + x) * 4; if (img.data[i + 3] > 200 && img.data[i + 2] > 150 && img.data[i] < 120) n++; }
	return n;
})`

// checkPlotted fails unless every point of ans is drawn on the chart
// (the second column: the mean or the sum).
func checkPlotted(t *testing.T, tb *tab, sel string, ans historyAnswer) {
	t.Helper()
	pts := make([][2]float64, len(ans.Points))
	for i, p := range ans.Points {
		pts[i] = [2]float64{p[0], p[1]}
	}
	arg, _ := json.Marshal(pts)
	hits := eval[[]bool](t, tb, plottedJS+fmt.Sprintf("(%q, %s)", sel, arg))
	missed := 0
	for i, ok := range hits {
		if !ok {
			if missed < 5 {
				t.Errorf("%s: the point %v is not drawn", sel, ans.Points[i])
			}
			missed++
		}
	}
	if missed > 0 || len(hits) != len(ans.Points) {
		t.Errorf("%s: %d of the %d points the history answered are not drawn", sel, missed, len(ans.Points))
	}
}

// directionChart: the direction's chart is points, every one the history
// answered (columns t and mean, no band), on an axis of 0–360° named by
// the compass; where the wind turned through north between two points,
// no line crosses the chart.
func directionChart(t *testing.T, tb *tab, base string) {
	sel, ans := openStationChart(t, tb, base, "WindAngle")
	if fmt.Sprint(ans.Columns) != "[t mean]" {
		t.Fatalf("a direction's history: columns %v, want t and mean", ans.Columns)
	}
	ds := eval[map[string]string](t, tb, `Object.assign({}, document.querySelector('`+sel+`').dataset)`)
	if ds["style"] != "points" || ds["drawn"] != fmt.Sprint(len(ans.Points)) || ds["yMin"] != "0" || ds["yMax"] != "360" {
		t.Errorf("the direction's chart: %v, want the %d points as points on 0–360°", ds, len(ans.Points))
	}
	checkPlotted(t, tb, sel, ans)
	crossings := 0
	for i := 1; i < len(ans.Points); i++ {
		a, b := ans.Points[i-1], ans.Points[i]
		if math.Abs(a[1]-b[1]) < 180 {
			continue
		}
		crossings++
		if n := eval[int](t, tb, paintedBetweenJS+fmt.Sprintf("(%q, %g, %g, 90, 270)", sel, a[0], b[0])); n > 0 {
			t.Errorf("from %g° to %g° (through north): %d pixels drawn across the chart between them", a[1], b[1], n)
		}
	}
	if crossings == 0 {
		t.Fatal("the wind never turned through north: the test shows nothing")
	}
	axis := eval[string](t, tb, `document.querySelector('`+sel+` .summary').textContent`)
	if !regexpMatch(`24 h, raw.*: mean from (N|NNE|NNW) \(\d+°\)`, axis) {
		t.Errorf("the direction's summary %q", axis)
	}
}

// gaugeChart: solar radiation and UV draw as lines through every point.
func gaugeChart(t *testing.T, tb *tab, base, m string) {
	sel, ans := openStationChart(t, tb, base, m)
	ds := eval[map[string]string](t, tb, `Object.assign({}, document.querySelector('`+sel+`').dataset)`)
	if ds["style"] != "line" || ds["drawn"] != fmt.Sprint(len(ans.Points)) {
		t.Errorf("%s's chart: %v, want a line through the %d points", m, ds, len(ans.Points))
	}
	checkPlotted(t, tb, sel, ans)
}

// lightningChart: the strikes are bars, with their 24-h total, as the
// history sums them.
func lightningChart(t *testing.T, tb *tab, base string) {
	sel, ans := openStationChart(t, tb, base, "Lightning")
	var sum struct{ Sum float64 }
	if err := json.Unmarshal(ans.Summary, &sum); err != nil || fmt.Sprint(ans.Columns) != "[t sum]" {
		t.Fatalf("lightning's history: columns %v, summary %s", ans.Columns, ans.Summary)
	}
	ds := eval[map[string]string](t, tb, `Object.assign({}, document.querySelector('`+sel+`').dataset)`)
	if ds["style"] != "bars" || ds["drawn"] != fmt.Sprint(len(ans.Points)) {
		t.Errorf("lightning's chart: %v, want bars of the %d sums", ds, len(ans.Points))
	}
	want := fmt.Sprintf("total %g strikes in 24 h", sum.Sum)
	if s := eval[string](t, tb, `document.querySelector('`+sel+` .summary').textContent`); !regexpMatch(want, s) {
		t.Errorf("lightning's summary %q, want %q", s, want)
	}
}
