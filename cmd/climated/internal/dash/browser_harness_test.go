package dash_test

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/climated/climated/internal/testutil/chromium"
)

// tab is a browser tab that records what went wrong in it: console errors,
// uncaught exceptions, failed requests and HTTP errors.
type tab struct {
	ctx      context.Context
	problems chromium.Problems
}

func newTab(t *testing.T, browserCtx context.Context) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browserCtx)
	t.Cleanup(cancel)
	ctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancelTime)
	tb := &tab{ctx: ctx}
	if err := chromedp.Listen(ctx, tb.problems.Event); err != nil {
		t.Fatal(err)
	}
	return tb
}

// check fails the test with the tab's problems, and forgets them.
func (tb *tab) check(t *testing.T) {
	t.Helper()
	for _, p := range tb.problems.Take() {
		t.Error(p)
	}
}

// forgive forgets the problems of loading url, whose error status the
// test expects (a login page's 401, an error page's 400): the response
// and the log's line of it.
func (tb *tab) forgive(url string) { tb.problems.Forgive(url) }

func (tb *tab) transferred() int64 { return tb.problems.Transferred() }

func (tb *tab) do(t *testing.T, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(tb.ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// eval evaluates a JavaScript expression in the tab.
func eval[T any](t *testing.T, tb *tab, expr string) T {
	t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluate %.80s: %v", expr, err)
	}
	return v
}

// waitFor polls a JavaScript condition until it is true; errors while a
// page navigates away count as false.
func waitFor(t *testing.T, tb *tab, cond string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	var last error
	for time.Now().Before(deadline) {
		ok, err := chromedp.Run(tb.ctx, chromedp.Evaluate[bool]("!!("+cond+")"))
		if err == nil && ok {
			return
		}
		last = err
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("waited %s for %s (last error: %v)", within, cond, last)
}

// artifacts is where screenshots and figures go (chromium.Artifacts).
func artifacts(t *testing.T) string { return chromium.Artifacts(t) }
