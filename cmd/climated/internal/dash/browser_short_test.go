package dash_test

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/climated/climated/cmd/climated/internal/dash"
	"github.com/climated/climated/internal/testutil/chromium"
)

// view is a screen the dashboard is tried on: a phone's true width by
// device-metrics emulation (a window cannot be made that narrow), or a
// desktop's.
type view struct {
	name          string
	width, height int64
	mobile        bool
}

var views = []view{{"phone", 390, 844, true}, {"desktop", 1440, 900, false}}

func (v view) apply(t *testing.T, tb *tab) {
	t.Helper()
	if _, err := chromedp.Call(tb.ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: v.width, Height: v.height, DeviceScaleFactor: 1, Mobile: v.mobile}); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserShortHistory: a hub with a day of history, as a new one has,
// on a phone and a desktop, and its times in two locales.
func TestBrowserShortHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a browser")
	}
	bctx := chromium.Browser(t)
	store, _ := demoStore(t, 24*time.Hour)
	alert := []dash.Alert{{Zone: "Bedroom", Rule: "house.co2", Text: "stuffy air: any zone: CO2 above 1400 ppm for 15 min", Since: time.Now().Add(-26 * time.Hour).Unix(), Value: 1450}}
	src := dash.StoreSource{Store: store, StaleAfter: time.Hour, ActiveAlerts: func() []dash.Alert { return alert }}
	base := serve(t, "127.0.0.1", newDash(t, src, &dash.Options{Simulated: true}))
	for _, v := range views {
		t.Run(v.name, func(t *testing.T) { shortRanges(t, newTab(t, bctx), base, v) })
		t.Run(v.name+"/readable", func(t *testing.T) { readable(t, newTab(t, bctx), base, v) })
	}
	for _, locale := range []string{"en-GB", "en-US"} {
		t.Run(locale, func(t *testing.T) { timeFormats(t, newTab(t, bctx), base, locale) })
	}
}

// chooseRange clicks a range of the first chart and waits until it is drawn.
func chooseRange(t *testing.T, tb *tab, r string) {
	t.Helper()
	tb.do(t, chromedp.Click(firstChart+` button[data-range="`+r+`"]`))
	waitFor(t, tb, `(c => c.dataset.state === 'ready' && c.querySelector('[data-range="`+r+`"]').getAttribute('aria-pressed') === 'true')(document.querySelector('`+firstChart+`'))`, 20*time.Second)
}

// xLimits are the first chart's x axis limits (Unix seconds).
func xLimits(t *testing.T, tb *tab) (from, to float64) {
	t.Helper()
	got := eval[[]float64](t, tb, `(c => [+c.dataset.xMin, +c.dataset.xMax])(document.querySelector('`+firstChart+`'))`)
	return got[0], got[1]
}

// checkAxis fails unless the first chart's axis spans span up to now
// (within slack), whatever part of it the readings cover.
func checkAxis(t *testing.T, tb *tab, r string, span, slack time.Duration) {
	t.Helper()
	from, to := xLimits(t, tb)
	now := float64(time.Now().Unix())
	if math.IsNaN(from) || math.Abs(to-now) > slack.Seconds() || math.Abs(to-from-span.Seconds()) > slack.Seconds() {
		t.Errorf("%s: the axis runs from %s to %s, want the %s up to now", r, unix(from), unix(to), span)
	}
	axis := eval[string](t, tb, `document.querySelector('`+firstChart+`').dataset.axis`)
	if next := strconv.Itoa(time.Now().Year() + 1); strings.Contains(axis, next) {
		t.Errorf("%s: the axis is labelled %q, a year that has not begun", r, axis)
	}
}

func unix(s float64) string { return time.Unix(int64(s), 0).Format(time.DateTime) }

// shortRanges: a year of a day's history says there is too little to draw
// instead of drawing a point; 7 days draw the day within the 7 days.
func shortRanges(t *testing.T, tb *tab, base string, v view) {
	v.apply(t, tb)
	tb.do(t, chromedp.Navigate(base+"/"))
	waitFor(t, tb, `document.querySelector('`+firstChart+`[data-state=ready]') !== null`, 30*time.Second)
	if w := eval[int](t, tb, `document.documentElement.clientWidth`); w != int(v.width) {
		t.Fatalf("the page is %d px wide, want %d", w, v.width)
	}
	chooseRange(t, tb, "1y")
	got := eval[[]string](t, tb, `(c => [c.dataset.points, String(c.querySelectorAll('canvas').length), (c.querySelector('.too-little') || {}).textContent || ''])(document.querySelector('`+firstChart+`'))`)
	t.Logf("1 year on the %s: %s points, %s canvases, %q", v.name, got[0], got[1], got[2])
	if got[1] != "0" || !strings.HasPrefix(got[2], "Too little history to draw 1 year") {
		t.Errorf("1 year of a day's history on the %s: %s canvases, message %q; want no chart and the message", v.name, got[1], got[2])
	}
	chooseRange(t, tb, "7d")
	if n := eval[int](t, tb, `document.querySelectorAll('`+firstChart+` canvas').length`); n != 1 {
		t.Fatalf("7 days on the %s: %d canvases", v.name, n)
	}
	checkAxis(t, tb, "7d", 7*24*time.Hour, time.Hour)
	chooseRange(t, tb, "24h")
	checkAxis(t, tb, "24h", 24*time.Hour, 10*time.Minute)
	tb.check(t)
}

// timeOfDay finds the times of day in a text, in any of the formats the
// page once mixed (03:53 AM, 3:53:00 AM, 10:45pm, 21:00).
var timeOfDay = regexp.MustCompile(`\d{1,2}[:.]\d{2}(?::\d{2})?(?: ?[AaPp]\.?[Mm]\.?)?`)

// timeFormats: every time on the page (cards, alert, chart summary, hover
// read-out, axis, the last update's tooltip) is written one way, the
// locale's: 24 h for en-GB, 12 h for en-US.
func timeFormats(t *testing.T, tb *tab, base, locale string) {
	if _, err := chromedp.Call(tb.ctx, emulation.SetLocaleOverride, emulation.SetLocaleOverrideParams{Locale: locale}); err != nil {
		t.Fatal(err)
	}
	views[1].apply(t, tb)
	tb.do(t, chromedp.Navigate(base+"/"))
	waitFor(t, tb, `document.querySelector('`+firstChart+`[data-state=ready]') !== null && document.querySelector('#alerts li') !== null`, 30*time.Second)
	hover(t, tb, firstChart)
	texts := eval[map[string][]string](t, tb, timeTextsJS)
	want := map[string]*regexp.Regexp{"en-GB": regexp.MustCompile(`^\d{2}:\d{2}$`), "en-US": regexp.MustCompile(`^(1[0-2]|[1-9]):\d{2} [AP]M$`)}[locale]
	numericDate := regexp.MustCompile(`\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{2,4}`)
	for source, list := range texts {
		var found []string
		for _, s := range list {
			found = append(found, timeOfDay.FindAllString(s, -1)...)
			if d := numericDate.FindString(s); d != "" {
				t.Errorf("%s: %q has a numeric date %q", source, s, d)
			}
		}
		if len(found) == 0 {
			t.Errorf("%s: no time of day in %q", source, list)
		}
		for _, f := range found {
			if !want.MatchString(f) {
				t.Errorf("%s in %s: time %q, want the form %s (all of %q)", locale, source, f, want, list)
			}
		}
		t.Logf("%s %s: %q", locale, source, found)
	}
	tb.check(t)
}

// hover moves the mouse to the middle of a chart and waits for the
// read-out.
func hover(t *testing.T, tb *tab, chart string) {
	t.Helper()
	box := eval[[]float64](t, tb, `(o => { o.scrollIntoView({block: 'center'}); const r = o.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2] })(document.querySelector('`+chart+` .u-over'))`)
	tb.do(t, chromedp.MouseEvent("mouseMoved", box[0], box[1]))
	waitFor(t, tb, `/[0-9]/.test(document.querySelector('`+chart+` .u-legend .u-series:first-child .u-value').textContent)`, 5*time.Second)
}

// timeTextsJS collects the page's texts that hold times, each kind apart,
// with the locale's narrow spaces made plain.
var timeTextsJS = fmt.Sprintf(`(() => {
  const all = (sel, f) => [...document.querySelectorAll(sel)].map(f || (e => e.textContent)).map(s => s.replace(/[\u202f\u00a0]/g, ' '));
  return {
    cards: all('.card time[data-key^="date_"]'),
    updated: all('.card time.age', e => e.title),
    alerts: all('#alerts li'),
    summary: all('%[1]s .summary'),
    hover: all('%[1]s .u-legend .u-series:first-child .u-value'),
    axis: all('%[1]s', e => e.dataset.axis || ''),
  };
})()`, firstChart)
