package dash_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/climated/climated/sensors"
)

// screenshots: phone (390 px, by device-metrics emulation) and desktop,
// light and dark, as PNGs; one column on the phone, several on the
// desktop. CLIMATED_README_SHOT=1 also writes them into testdata, where
// the README shows them.
func screenshots(t *testing.T, tb *tab, base, dir string, store storeRecorder, feed *feeder) {
	tb.do(t, chromedp.Navigate(base+"/"))
	waitFor(t, tb, `document.querySelector('section.chart[data-state=ready]') !== null`, 30*time.Second)
	// The bedroom's air as on a winter night: its CO2 marked past the house rule.
	feed.pause(true)
	defer feed.pause(false)
	stuffy := sensors.Reading{Zone: "Bedroom", Measurement: sensors.CO2, Value: 1480, Time: time.Now(), Source: "test"}
	if err := store.Record(context.Background(), sensors.Batch{Readings: []sensors.Reading{stuffy}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, tb, `document.querySelector('.card[data-zone="Bedroom"] .value.past') !== null`, 10*time.Second)
	for _, v := range views {
		for _, theme := range []string{"light", "dark"} {
			v.apply(t, tb)
			if _, err := chromedp.Call(tb.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}}}); err != nil {
				t.Fatal(err)
			}
			time.Sleep(700 * time.Millisecond) // charts redraw on resize and on a theme change
			if w := eval[int](t, tb, `document.documentElement.clientWidth`); w != int(v.width) {
				t.Errorf("%s: the page is %d px wide, want %d", v.name, w, v.width)
			}
			columns := eval[int](t, tb, `new Set([...document.querySelectorAll('.card')].map(c => c.getBoundingClientRect().left)).size`)
			dark := eval[bool](t, tb, `(m => m.slice(0, 3).reduce((a, b) => a + +b, 0) < 200)(getComputedStyle(document.body).backgroundColor.match(/[0-9.]+/g))`)
			overflow := eval[bool](t, tb, `document.documentElement.scrollWidth > document.documentElement.clientWidth`)
			if (v.mobile && columns != 1) || (!v.mobile && columns < 2) || dark != (theme == "dark") || overflow {
				t.Errorf("%s %s: %d columns, dark %v, horizontal overflow %v", v.name, theme, columns, dark, overflow)
			}
			if worst := eval[[]any](t, tb, contrastJS); len(worst) == 2 && worst[0].(float64) < 4.5 {
				t.Errorf("%s %s: text contrast %.2f:1 at %v, want at least 4.5:1 (WCAG AA)", v.name, theme, worst[0], worst[1])
			}
			png, err := chromedp.Run(tb.ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("dashboard-%s-%s.png", v.name, theme)
			writeArtifact(t, dir, name, png)
			if os.Getenv("CLIMATED_README_SHOT") == "1" {
				writeArtifact(t, "testdata", name, png)
			}
		}
	}
	t.Logf("screenshots in %s", dir)
	tb.check(t)
}

// offLoopback: from another machine the page asks for the token, refuses a
// wrong one and a login posted by another site, then opens with the right one.
func offLoopback(t *testing.T, tb *tab, base, remoteBase string) {
	tb.do(t, chromedp.Navigate(remoteBase+"/"))
	waitFor(t, tb, `document.querySelector('input#token') !== null`, 10*time.Second)
	if eval[bool](t, tb, `document.querySelector('article.card[data-zone], script[src*="app.js"]') !== null`) {
		t.Error("the page without a token carries the dashboard")
	}
	if s := eval[int](t, tb, `fetch('/dash/state').then(r => r.status)`); s != 401 {
		t.Errorf("state without a token: %d", s)
	}
	tb.do(t, chromedp.SendKeys(`#token`, "not-the-token"), chromedp.Submit(`#token`))
	waitFor(t, tb, `(e => e !== null && /not the hub's token/.test(e.textContent))(document.querySelector('.error'))`, 10*time.Second)
	// Another site's page posts the right token to the hub: refused.
	evil := serve(t, "127.0.0.1", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, `<!doctype html><form method="post" action="%s/dash/login"><input name="token" value="%s"></form>
<script>document.forms[0].submit()</script>`, remoteBase, testToken)
	}))
	tb.do(t, chromedp.Navigate(evil+"/"))
	waitFor(t, tb, `location.href.startsWith('`+remoteBase+`') && /Origin .* is not allowed/.test(document.body.textContent)`, 10*time.Second)
	tb.do(t, chromedp.Navigate(remoteBase+"/"))
	waitFor(t, tb, `document.querySelector('input#token') !== null`, 10*time.Second)
	tb.do(t, chromedp.SendKeys(`#token`, testToken), chromedp.Submit(`#token`))
	waitFor(t, tb, `document.querySelectorAll('.card').length === 4 && document.querySelector('section.chart[data-state=ready]') !== null`, 30*time.Second)
	if s := eval[int](t, tb, `fetch('/dash/state').then(r => r.status)`); s != 200 {
		t.Errorf("state with the session: %d", s)
	}
}

// figures: bytes transferred on a first load and the time to the first
// chart, on this machine's CPU and slowed down six times.
func figures(t *testing.T, bctx context.Context, base, dir string) {
	var report string
	for _, rate := range []float64{1, 6} {
		tb := newTab(t, bctx)
		if _, err := chromedp.Call(tb.ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(tb.ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate}); err != nil {
			t.Fatal(err)
		}
		tb.do(t, chromedp.Navigate(base+"/"))
		waitFor(t, tb, `document.documentElement.dataset.firstChart !== undefined`, 60*time.Second)
		ms := eval[string](t, tb, `document.documentElement.dataset.firstChart`)
		time.Sleep(300 * time.Millisecond)
		n := tb.transferred()
		line := fmt.Sprintf("CPU ×%g: first load %d bytes transferred, first chart after %s ms", rate, n, ms)
		t.Log(line)
		report += line + "\n"
		if n > 150_000 {
			t.Errorf("first load transferred %d bytes, budget 150 000", n)
		}
		tb.check(t)
	}
	writeArtifact(t, dir, "figures.txt", []byte(report))
	t.Logf("figures in %s", filepath.Join(dir, "figures.txt"))
}

// contrastJS finds the visible text of the page with the lowest contrast
// against the background it is drawn on (WCAG 2's relative luminance):
// [ratio, "tag.class: text"], or [] when there is no text.
const contrastJS = `(() => {
  const rgb = (c) => (c.match(/[0-9.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  const bg = (e) => { for (; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c.length === 3 || c[3] > 0) return c; } return [255, 255, 255]; };
  let worst = null;
  for (const e of document.querySelectorAll('body *')) {
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
    const r = e.getBoundingClientRect();
    if (!own || r.width === 0 || r.height === 0 || getComputedStyle(e).visibility === 'hidden') continue;
    const a = lum(rgb(getComputedStyle(e).color)), b = lum(bg(e));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (!worst || ratio < worst[0]) worst = [ratio, e.tagName.toLowerCase() + '.' + e.className + ': ' + e.textContent.trim().slice(0, 40)];
  }
  return worst || [];
})()`
