package dash_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/climated/climated/cmd/climated/internal/dash"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/internal/testutil/chromium"
)

// setHidden makes the page hidden or shown as a browser does when its tab
// goes to the background or comes back: document.hidden and
// visibilityState change and visibilitychange fires. (Every tab of the
// headless browser counts as shown; the page's own properties are set.)
func setHidden(t *testing.T, tb *tab, hidden bool) {
	t.Helper()
	state := map[bool]string{true: "hidden", false: "visible"}[hidden]
	eval[bool](t, tb, fmt.Sprintf(`(() => {
		Object.defineProperty(document, 'hidden', {configurable: true, get: () => %t});
		Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => '%s'});
		document.dispatchEvent(new Event('visibilitychange'));
		return true })()`, hidden, state))
}

// TestBrowserManyTabs: dashboards open in tabs the user does not look at
// hold no stream, so more of them than a browser's six connections to a
// host over plain HTTP do not keep another from loading (a seventh page
// never loaded: each open page's stream held a connection); a page shown
// again follows the house at once.
func TestBrowserManyTabs(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a browser")
	}
	bctx := chromium.Browser(t)
	store, _ := demoStore(t, 6*time.Hour)
	h := newDash(t, dash.StoreSource{Store: store, StaleAfter: time.Hour}, &dash.Options{Simulated: true})
	base := serve(t, "127.0.0.1", h)
	var first *tab
	for i := range 9 {
		tb := newTab(t, bctx)
		tb.do(t, chromedp.Navigate(base+"/"))
		waitFor(t, tb, `document.getElementById('live').textContent === 'live' && document.querySelectorAll('.card').length === 4`, 20*time.Second)
		if i == 0 {
			first = tb
		}
		setHidden(t, tb, true)
		if got := eval[string](t, tb, `document.getElementById('live').textContent`); got != "paused" {
			t.Errorf("tab %d hidden says %q, want paused", i, got)
		}
		testutil.WaitFor(t, fmt.Sprintf("tab %d's stream closed", i), func() bool { return h.Streams() == 0 })
	}
	setHidden(t, first, false)
	waitFor(t, first, `document.getElementById('live').textContent === 'live'`, 10*time.Second)
	if n := h.Streams(); n != 1 {
		t.Errorf("%d streams with one page shown, want 1", n)
	}
	first.check(t)
}
