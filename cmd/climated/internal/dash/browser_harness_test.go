package dash_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// tab is a browser tab that records what went wrong in it: console errors,
// uncaught exceptions, failed requests and HTTP errors.
type tab struct {
	ctx      context.Context
	mu       sync.Mutex
	problems []string
	bytes    int64 // transferred so far, compressed as sent
}

func newTab(t *testing.T, browserCtx context.Context) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browserCtx)
	t.Cleanup(cancel)
	ctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancelTime)
	tb := &tab{ctx: ctx}
	if err := chromedp.Listen(ctx, tb.event); err != nil {
		t.Fatal(err)
	}
	return tb
}

func (tb *tab) event(ev any) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError {
			var args []string
			for _, a := range ev.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			tb.problems = append(tb.problems, "console.error: "+strings.Join(args, " "))
		}
	case *runtime.EventExceptionThrown:
		tb.problems = append(tb.problems, "exception: "+ev.ExceptionDetails.Text+" "+describe(ev.ExceptionDetails.Exception))
	case *log.EventEntryAdded:
		if ev.Entry.Level == log.EntryLevelError {
			tb.problems = append(tb.problems, fmt.Sprintf("log error: %s %s", ev.Entry.Text, ev.Entry.URL))
		}
	case *network.EventLoadingFailed:
		if !ev.Canceled {
			tb.problems = append(tb.problems, "request failed: "+ev.ErrorText)
		}
	case *network.EventResponseReceived:
		if ev.Response.Status >= 400 {
			tb.problems = append(tb.problems, fmt.Sprintf("HTTP %d: %s", ev.Response.Status, ev.Response.URL))
		}
	case *network.EventLoadingFinished:
		tb.bytes += int64(ev.EncodedDataLength)
	}
}

func describe(o *runtime.RemoteObject) string {
	if o == nil {
		return ""
	}
	return o.Description
}

// check fails the test with the tab's problems, and forgets them.
func (tb *tab) check(t *testing.T) {
	t.Helper()
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, p := range tb.problems {
		t.Error(p)
	}
	tb.problems = nil
}

// forgive forgets the problems of loading url, whose error status the
// test expects (a login page's 401, an error page's 400): the response
// and the log's line of it.
func (tb *tab) forgive(url string) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	var others []string
	for _, p := range tb.problems {
		if !strings.HasSuffix(p, " "+url) {
			others = append(others, p)
		}
	}
	tb.problems = others
}

func (tb *tab) transferred() int64 {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return tb.bytes
}

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

// artifacts is where screenshots and figures go: $CLIMATED_ARTIFACTS or a
// temporary directory.
func artifacts(t *testing.T) string {
	if d := os.Getenv("CLIMATED_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}
