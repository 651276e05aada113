package dash_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/climated/climated/cmd/climated/internal/dash"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/internal/testutil/chromium"
	"github.com/climated/climated/sensors"
)

// The station's zones: its outdoor array and a leak sensor.
const (
	garden = "Garden"
	cellar = "Cellar"
)

// TestBrowserStation: a weather station's day in a real SQLite history (its
// outdoor array with wind, sun, UV, rain rate and lightning, and a leak
// sensor), on the dashboard in chromium: the cards show every key of the
// structure, the wind as a compass whose arrow is turned by the angle,
// the direction's chart draws every point the history answered as points
// without lines across north, solar radiation and UV draw, lightning as
// bars with its total; at 380 px and on a desktop, light and dark, with
// no overflow and no console error.
func TestBrowserStation(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a browser")
	}
	bctx := chromium.Browser(t)
	store := emptyStore(t)
	now := time.Now().Truncate(time.Second)
	recordStation(t, store, now)
	src := dash.StoreSource{Store: store, StaleAfter: time.Hour}
	// The history answers up to now, fixed: the test asks again for what
	// the page asked, and gets the same points; no keep-alive's state
	// adds a point to an open chart meanwhile.
	base := serve(t, "127.0.0.1", newDash(t, src, &dash.Options{Now: func() time.Time { return now.Add(time.Second) }, KeepAlive: time.Hour}))
	tb := newTab(t, bctx)
	views[1].apply(t, tb)
	tb.do(t, chromedp.Navigate(base+"/"))
	waitFor(t, tb, `document.querySelectorAll('.card').length === 2 && document.querySelector('section.chart[data-state=ready]') !== null`, 30*time.Second)
	t.Run("cards", func(t *testing.T) {
		dom := eval[map[string]map[string][2]string](t, tb, cardsJS)
		for _, d := range compareCards(t, fetchClimate(t, base), dom) {
			t.Error(d)
		}
	})
	t.Run("wind", func(t *testing.T) { windCard(t, tb, 350, "N") })
	t.Run("compass", func(t *testing.T) { compassPoints(t, tb) })
	t.Run("gust", func(t *testing.T) { gustShown(t, tb) })
	t.Run("leak", func(t *testing.T) { leakShown(t, tb) })
	t.Run("direction", func(t *testing.T) { directionChart(t, tb, base) })
	t.Run("sun", func(t *testing.T) { gaugeChart(t, tb, base, "SolarRadiation"); gaugeChart(t, tb, base, "UV") })
	t.Run("lightning", func(t *testing.T) { lightningChart(t, tb, base) })
	t.Run("screenshots", func(t *testing.T) { stationShots(t, tb, artifacts(t)) })
	t.Run("turns", func(t *testing.T) {
		views[1].apply(t, tb)
		r := sensors.Reading{Zone: garden, Measurement: sensors.WindAngle, Value: 200, Time: time.Now(), Source: "test"}
		if err := store.Record(context.Background(), sensors.Batch{Readings: []sensors.Reading{r}}); err != nil {
			t.Fatal(err)
		}
		waitFor(t, tb, `document.querySelector('.card[data-zone="Garden"] [data-key="WindAngle"]').dataset.value === '200'`, 10*time.Second)
		windCard(t, tb, 200, "SSW")
	})
	tb.check(t)
}

// cardsJS reads every card's keys: data-value and the text shown.
const cardsJS = `Object.fromEntries([...document.querySelectorAll('.card')].map(c =>
	[c.dataset.zone, Object.fromEntries([...c.querySelectorAll('[data-key]')].map(e => [e.dataset.key, [e.dataset.value, e.textContent]]))]))`

// recordStation records a day of the station every 5 minutes up to now,
// as a running hub records its uploads: a wind that swings across north
// (from 320° to 40°), a morning's sun, a storm's lightning in the
// afternoon; the latest readings say wind from 350°, gusts from 200°,
// water in the cellar.
func recordStation(t *testing.T, store *hub.Hub, now time.Time) {
	t.Helper()
	var rs []sensors.Reading
	add := func(at time.Time, m sensors.Measurement, v float64) {
		rs = append(rs, sensors.Reading{Zone: garden, Measurement: m, Value: v, Time: at, Source: "station/ecowitt"})
	}
	start := now.Add(-24 * time.Hour)
	for i := 0; !start.Add(time.Duration(i) * 5 * time.Minute).After(now); i++ {
		at := start.Add(time.Duration(i) * 5 * time.Minute)
		phase := float64(i) / 288 * 2 * math.Pi
		add(at, sensors.Temperature, 7+3*math.Sin(phase))
		add(at, sensors.Humidity, 80)
		add(at, sensors.WindStrength, 12+6*math.Sin(3*phase))
		add(at, sensors.GustStrength, 20+10*math.Sin(3*phase))
		add(at, sensors.WindAngle, math.Mod(360+40*math.Sin(7*phase), 360))
		add(at, sensors.GustAngle, math.Mod(360+40*math.Cos(7*phase), 360))
		add(at, sensors.SolarRadiation, math.Max(0, 700*math.Sin(phase)))
		add(at, sensors.UV, math.Max(0, math.Round(6*math.Sin(phase))))
		add(at, sensors.RainRate, math.Max(0, 4*math.Sin(5*phase)))
		add(at, sensors.Lightning, float64(i%5/4*(1+i%3))) // a strike or three every 25 minutes
		add(at, sensors.LightningDistance, float64(5+i%20))
		rs = append(rs, sensors.Reading{Zone: cellar, Measurement: sensors.Leak, Value: 0, Time: at, Source: "station/ecowitt"})
	}
	latest := now.Add(time.Second)
	add(latest, sensors.WindAngle, 350)
	add(latest, sensors.GustAngle, 200)
	rs = append(rs, sensors.Reading{Zone: cellar, Measurement: sensors.Leak, Value: 1, Time: latest, Source: "station/ecowitt"})
	if err := store.Record(context.Background(), sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
	if err := store.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
}

const windCardSel = `.card[data-zone="Garden"] section.wind`

// windCard: the wind panel says where the wind comes from by the compass
// point of the angle, and its arrow is turned by the angle: its tail on
// the rim at the bearing the wind comes from, measured on the screen.
func windCard(t *testing.T, tb *tab, angle float64, point string) {
	t.Helper()
	got := eval[map[string]any](t, tb, `(w => {
		const g = w.querySelector('.compass .dial .arrow'), m = g.transform.baseVal.consolidate().matrix;
		const c = w.querySelector('.dial .rim').getBoundingClientRect(), tail = w.querySelector('.dial .arrow line');
		const p = new DOMPoint(+tail.getAttribute('x1'), +tail.getAttribute('y1')).matrixTransform(tail.getScreenCTM());
		return {point: w.querySelector('.compass .point').textContent, label: w.querySelector('.compass .label').textContent,
			rotation: Math.atan2(m.b, m.a) * 180 / Math.PI,
			tail: Math.atan2(p.x - (c.left + c.width / 2), (c.top + c.height / 2) - p.y) * 180 / Math.PI,
			speed: w.querySelector('[data-key="WindStrength"]').textContent, gust: w.querySelector('[data-key="GustStrength"]').textContent,
			units: [...w.querySelectorAll('.unit')].map(u => u.textContent).join(',')};
	})(document.querySelector('`+windCardSel+`'))`)
	t.Logf("wind at %g°: %v", angle, got)
	if got["point"] != point || got["label"] != "Wind from" {
		t.Errorf("wind from %g°: the card says %q %q, want %q", angle, got["label"], got["point"], point)
	}
	for _, k := range []string{"rotation", "tail"} {
		if d := angleDiff(got[k].(float64), angle); d > 1 {
			t.Errorf("wind from %g°: the arrow's %s is at %.1f°", angle, k, got[k])
		}
	}
	if got["units"] != "km/h,km/h" {
		t.Errorf("the wind's units: %q, want km/h for the speed and the gusts", got["units"])
	}
	if title := eval[string](t, tb, `document.querySelector('`+windCardSel+` .compass').getAttribute('aria-label')`); !regexpMatch("^Wind from "+point+":", title) {
		t.Errorf("the compass's label %q does not say from %s", title, point)
	}
}

// compassPoints: the page names a direction by the 16 points, each
// 22.5° wide and centred on its bearing (N from 348.75° to 11.25°).
func compassPoints(t *testing.T, tb *tab) {
	points := strings.Fields("N NNE NE ENE E ESE SE SSE S SSW SW WSW W WNW NW NNW")
	want := map[float64]string{-10: "N", 360: "N", 725: "N", 350: "N", 200: "SSW", 327: "NNW"}
	for i, p := range points {
		c := float64(i) * 22.5
		want[c], want[c+11.2], want[math.Mod(c+360-11.2, 360)] = p, p, p
	}
	var degs []float64
	for d := range want {
		degs = append(degs, d)
	}
	arg, _ := json.Marshal(degs)
	got := eval[[]string](t, tb, `(`+string(arg)+`).map(window.climatedWeather.compass)`)
	for i, d := range degs {
		if got[i] != want[d] {
			t.Errorf("%g°: %q, want %s", d, got[i], want[d])
		}
	}
}

// angleDiff is the difference of two angles in degrees, 0 to 180.
func angleDiff(a, b float64) float64 {
	d := math.Mod(math.Abs(a-b), 360)
	return math.Min(d, 360-d)
}

// gustShown: the gusts say their direction's compass point and the day's
// strongest gust with its time.
func gustShown(t *testing.T, tb *tab) {
	sub := eval[string](t, tb, `document.querySelector('`+windCardSel+` [data-key="GustStrength"]').closest('.value').querySelector('.sub').textContent`)
	if !regexpMatch(`^from 200° SSWmax \d+ km/h at \d`, sub) {
		t.Errorf("the gusts' line %q, want their direction (200° SSW) and the day's strongest", sub)
	}
	feels := eval[string](t, tb, `document.querySelector('.card[data-zone="Garden"] .feels').textContent`)
	if !regexpMatch(`^feels like -?\d+\.\d °C · wind chill -?\d+\.\d °C · dew point -?\d+\.\d °C$`, feels) {
		t.Errorf("what the air feels like: %q", feels)
	}
}

// leakShown: a leak sensor's 1 is "water!", not a number.
func leakShown(t *testing.T, tb *tab) {
	if s := eval[string](t, tb, `document.querySelector('.card[data-zone="Cellar"] [data-key="Leak"]').textContent`); s != "water!" {
		t.Errorf("the cellar's leak sensor shows %q, want water!", s)
	}
}

// stationShots: at 380 px and on a desktop, light and dark, nothing is
// wider than the page or than its own box; screenshots for a look.
func stationShots(t *testing.T, tb *tab, dir string) {
	narrow := view{"phone380", 380, 844, true}
	for _, v := range []view{narrow, views[1]} {
		for _, theme := range []string{"light", "dark"} {
			v.apply(t, tb)
			if _, err := chromedp.Call(tb.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}}}); err != nil {
				t.Fatal(err)
			}
			time.Sleep(700 * time.Millisecond) // charts redraw on resize and on a theme change
			if wide := eval[[]string](t, tb, overflowJS); len(wide) > 0 {
				t.Errorf("%s %s: wider than their box: %q", v.name, theme, wide)
			}
			if worst := eval[[]any](t, tb, contrastJS); len(worst) == 2 && worst[0].(float64) < 4.5 {
				t.Errorf("%s %s: text contrast %.2f:1 at %v, want at least 4.5:1 (WCAG AA)", v.name, theme, worst[0], worst[1])
			}
			png, err := chromedp.Run(tb.ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			writeArtifact(t, dir, fmt.Sprintf("station-%s-%s.png", v.name, theme), png)
			if card, err := chromedp.Run(tb.ctx, chromedp.Screenshot(`.card[data-zone="Garden"]`)); err == nil {
				writeArtifact(t, dir, fmt.Sprintf("station-card-%s-%s.png", v.name, theme), card)
			} else {
				t.Error(err)
			}
		}
	}
	t.Logf("screenshots in %s", dir)
}

// overflowJS lists what sticks out: the page wider than the window, or a
// card or a value wider than its box.
const overflowJS = `(() => {
	const out = [], d = document.documentElement;
	if (d.scrollWidth > d.clientWidth) out.push('the page: ' + d.scrollWidth + ' > ' + d.clientWidth);
	for (const e of document.querySelectorAll('.card, .card .values, .card .wind, .card .value, .card .feels, .chart'))
		if (e.scrollWidth > e.clientWidth + 1) out.push(e.className + ' ' + (e.textContent || '').slice(0, 30) + ': ' + e.scrollWidth + ' > ' + e.clientWidth);
	return out;
})()`
