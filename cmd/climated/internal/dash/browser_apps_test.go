package dash_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/climated/climated/cmd/climated/internal/dash"
	"github.com/climated/climated/internal/testutil/chromium"
)

// TestBrowserAppsRevoke: with OAuth on, the owner logs in to the
// dashboard from another machine and sees the connected apps (name,
// client id, scopes, last use); Revoke, clicked twice, removes the one
// signed in, whose access token then stops working, and leaves the other.
// On a phone nothing is wider than the screen. With OAuth off the section
// is absent.
func TestBrowserAppsRevoke(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a browser")
	}
	h := newOAuthHub(t, func(o *dash.Options) { o.IsLoopback = remote })
	signedIn := h.register("Claude", "https://claude.example/callback")
	access := h.signIn(signedIn, "https://claude.example/callback")
	other := h.register(longName, longRedirect)
	bctx := chromium.Browser(t)
	tb := newTab(t, bctx)
	tb.do(t, chromedp.Navigate(h.base+"/"))
	waitFor(t, tb, `document.querySelector('input#token') !== null`, 10*time.Second)
	tb.forgive(h.base + "/") // the login page's 401
	tb.do(t, chromedp.SendKeys(`#token`, h.token), chromedp.Submit(`#token`))
	waitFor(t, tb, `document.querySelectorAll('#apps[data-state=ready] li').length === 2`, 20*time.Second)
	row := `#apps li[data-client="` + signedIn + `"]`
	text := eval[string](t, tb, `document.querySelector('`+row+`').innerText`)
	for _, want := range []string{"Claude", signedIn, "climate:read", "last used"} {
		if !strings.Contains(text, want) {
			t.Errorf("the app's row does not say %q: %q", want, text)
		}
	}
	views[0].apply(t, tb)
	checkNoOverflow(t, tb, "dashboard with apps")
	tb.do(t, chromedp.Click(row+` button.revoke`))
	waitFor(t, tb, `document.querySelector('`+row+` button.armed') !== null`, 5*time.Second)
	writeScreenshot(t, tb, artifacts(t), "apps-phone.png")
	if !h.works(access) {
		t.Fatal("one click revoked the app: it takes two")
	}
	tb.do(t, chromedp.Click(row+` button.revoke`))
	waitFor(t, tb, `document.querySelector('`+row+`') === null && document.querySelectorAll('#apps li').length === 1`, 10*time.Second)
	if got := eval[string](t, tb, `document.querySelector('#apps .status').textContent`); !strings.HasPrefix(got, "Revoked Claude") {
		t.Errorf("after revoking, the section says %q", got)
	}
	if h.works(access) {
		t.Error("the revoked app's access token still works")
	}
	list, err := h.as.Clients(context.Background())
	if err != nil || len(list) != 1 || list[0].ID != other {
		t.Errorf("after revoking %s, the server lists %+v (%v), want %s alone", signedIn, list, err, other)
	}
	tb.check(t)

	// OAuth off: no section, no endpoint.
	off := serve(t, "127.0.0.1", newDash(t, dash.StoreSource{Store: emptyStore(t)}, nil))
	tb = newTab(t, bctx)
	tb.do(t, chromedp.Navigate(off+"/"))
	waitFor(t, tb, `document.querySelector('#live').textContent === 'live'`, 20*time.Second)
	if eval[bool](t, tb, `document.querySelector('#apps') !== null`) {
		t.Error("the dashboard of a hub without OAuth shows connected apps")
	}
	tb.check(t)
}

// checkNoOverflow: the page is as wide as the phone, its content no wider.
func checkNoOverflow(t *testing.T, tb *tab, what string) {
	t.Helper()
	if w := eval[[]int](t, tb, `[document.documentElement.clientWidth, document.documentElement.scrollWidth]`); w[0] != 390 || w[1] > 390 {
		t.Errorf("%s: %d px wide with %d px of content, want 390 and no more", what, w[0], w[1])
	}
}
