package chromium

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
)

// The consent page's parts Approve uses, by the names the hub's form
// keeps whatever its look (cmd/climated/internal/oauth/consent.go).
const (
	ownerField    = chromedp.CSS(`input[name="owner"]`)
	approveButton = chromedp.CSS(`[name="action"][value="approve"]`)
)

// Approve opens authorizeURL (a hub's /authorize with a client's request)
// in a new tab of browser, types owner (the hub's token) into the consent
// page's owner field and clicks approve, as the owner would. The hub then
// sends the browser to the client's redirect URI: the tab catches the
// request for any URL that starts with callback before it leaves the
// browser, answers it with a page of its own (so a redirect URI that
// names a host out there, as Home Assistant's does, works too), and
// Approve returns the URL it was sent to, code, state and iss in its
// query. When the browser is not sent there within 30 s, the error
// quotes the page it stayed on. Each of grant (a scope, alerts:write) has
// its box on the page ticked before the click, as an owner who allows it
// does; the others are left as the page shows them.
func Approve(browser context.Context, authorizeURL, owner, callback string, grant ...string) (*url.URL, error) {
	tab, cancel := chromedp.NewContext(browser)
	defer cancel()
	caught, err := catch(tab, callback)
	if err != nil {
		return nil, err
	}
	steps, cancelSteps := context.WithTimeout(tab, 30*time.Second)
	defer cancelSteps()
	// The flag marks the consent page: a page without it that is not
	// callback is the hub's answer, an error.
	if err := chromedp.Do(steps, chromedp.Navigate(authorizeURL)); err != nil {
		return nil, fmt.Errorf("open %s: %w", authorizeURL, err)
	}
	if u, err := noConsent(steps, caught); u != nil || err != nil {
		return u, err
	}
	for _, g := range grant {
		box := fmt.Sprintf(`input[type="checkbox"][name="grant"][value=%q]`, g)
		ticked, err := chromedp.Run(steps, chromedp.Evaluate[bool](`(b => { if (b && !b.checked) b.click(); return !!b && b.checked })(document.querySelector(`+strconv.Quote(box)+`))`))
		if err == nil && !ticked {
			err = fmt.Errorf("no box %s", box)
		}
		if err != nil {
			return nil, fmt.Errorf("consent page %s: tick %s: %w (the page says %q)", authorizeURL, g, err, pageText(tab))
		}
	}
	if err := chromedp.Do(steps, chromedp.SendKeys(ownerField, owner), chromedp.Func(mark), chromedp.Click(approveButton)); err != nil {
		return nil, fmt.Errorf("consent page %s: %w (the page says %q)", authorizeURL, err, pageText(tab))
	}
	return sentTo(steps, caught, callback)
}

// noConsent returns where the hub sent the browser at once, with an
// error in its query, or an error quoting the page shown instead of the
// consent page; nil and nil when the consent page is there.
func noConsent(steps context.Context, caught <-chan *url.URL) (*url.URL, error) {
	form, err := chromedp.Run(steps, chromedp.Evaluate[bool](`!!document.querySelector('input[name="owner"]')`))
	if err != nil || form {
		return nil, err
	}
	select {
	case u := <-caught:
		return u, nil
	case <-time.After(time.Second):
		return nil, fmt.Errorf("no consent page; the page says %q", pageText(steps))
	}
}

func mark(ctx context.Context, t *chromedp.Target) error {
	_, err := chromedp.Evaluate[bool](`window.consentPageMark = true`)(ctx, t)
	return err
}

// sentTo waits for the browser to be sent to callback after the click,
// and fails as soon as it shows another page instead.
func sentTo(steps context.Context, caught <-chan *url.URL, callback string) (*url.URL, error) {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case u := <-caught:
			return u, nil
		case <-steps.Done():
			return nil, fmt.Errorf("approved, but the browser was not sent to %s within 30 s; the page says %q", callback, pageText(steps))
		case <-tick.C:
		}
		left, err := chromedp.Run(steps, chromedp.Evaluate[bool](`!window.consentPageMark && document.readyState === "complete"`))
		if err != nil || !left {
			continue // navigating, or still on the consent page
		}
		select {
		case u := <-caught: // the new page was callback's, caught as it loaded
			return u, nil
		case <-time.After(500 * time.Millisecond):
		}
		return nil, fmt.Errorf("approved, but the hub did not send the browser to %s; the page says %q", callback, pageText(steps))
	}
}

// catch makes the tab hand every request for a URL that starts with
// callback to the channel it returns, answered in the browser.
func catch(tab context.Context, callback string) (<-chan *url.URL, error) {
	paused := chromedp.Events(tab, fetch.RequestPaused) // subscribed before enabling: none is missed
	pattern := strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`).Replace(callback) + "*"
	if _, err := chromedp.Call(tab, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: pattern}}}); err != nil {
		return nil, fmt.Errorf("intercept %s in chromium: %w", callback, err)
	}
	caught := make(chan *url.URL, 1)
	go func() {
		for ev, err := range paused {
			if err != nil {
				return
			}
			u, err := url.Parse(ev.Request.URL)
			if err != nil {
				return
			}
			chromedp.Call(tab, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: ev.RequestID, ResponseCode: 200,
				ResponseHeaders: []*fetch.HeaderEntry{{Name: "Content-Type", Value: "text/plain"}}, Body: []byte("signed in; the client takes it from here")})
			caught <- u
			return
		}
	}()
	return caught, nil
}

// pageText is what the tab shows, for an error message: a few seconds at
// most, and "" when it cannot be read.
func pageText(tab context.Context) string {
	ctx, cancel := context.WithTimeout(tab, 5*time.Second)
	defer cancel()
	text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText.slice(0, 500) : ""`))
	return text
}
