package main

// The MCP Apps host page of the browser tests: ext-apps' AppBridge in
// chromium, the views in their sandboxed frames, and the helpers that
// read them.

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/internal/testutil/chromium"
)

// appsHost serves the test host page (testdata/apps), the npm packages it
// loads (scripts/mcp-clients/node_modules) and, on the same origin as a
// chat client's page would have it, the hub's /mcp.
func appsHost(t *testing.T, hub string) string {
	t.Helper()
	modules, err := filepath.Abs(filepath.Join(mcpClients, "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(modules, "@modelcontextprotocol/ext-apps/dist/src/app-bridge.js")); err != nil {
		testutil.RequireInCI(t, "ext-apps is missing (%v): run scripts/mcp-clients/install.sh", err)
	}
	target, _ := url.Parse(hub)
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(target)
		r.Out.Header.Del("Origin") // the page's origin is the test's, not the hub's
	}}
	files := http.FileServer(http.Dir(modules))
	mux := http.NewServeMux()
	mux.Handle("/mcp", proxy)
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, "testdata/apps/host.html") })
	mux.HandleFunc("GET /host.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		http.ServeFile(w, r, "testdata/apps/host.js")
	})
	mux.Handle("GET /node_modules/", http.StripPrefix("/node_modules/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".js") || strings.HasSuffix(r.URL.Path, ".mjs") {
			w.Header().Set("Content-Type", "text/javascript")
		}
		files.ServeHTTP(w, r)
	})))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// appsTab is the host page in a tab of chromium, with the views it shows
// (sandboxed, so of another origin: chromium runs each as a target of its
// own, which the test attaches to, found by its frame's name).
type appsTab struct {
	t        *testing.T
	browser  context.Context
	ctx      context.Context
	attached map[target.ID]context.Context
	problems chromium.Problems // of the host page and the views
}

func newAppsTab(t *testing.T, browser context.Context, page string) *appsTab {
	t.Helper()
	tab, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	ctx, cancelTime := context.WithTimeout(tab, 2*time.Minute)
	t.Cleanup(cancelTime)
	a := &appsTab{t: t, browser: browser, ctx: ctx, attached: map[target.ID]context.Context{}}
	if err := chromedp.Listen(ctx, a.problems.Event); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(page+"/")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.ready === "true"`, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatalf("the host page did not connect to the hub: %v %v", err, a.problems.Take())
	}
	return a
}

func (a *appsTab) check() {
	a.t.Helper()
	for _, p := range a.problems.Take() {
		a.t.Error(p)
	}
}

// view is the context of the view shown in the frame named name.
func (a *appsTab) view(name string) context.Context {
	a.t.Helper()
	a.drawn(name)
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		targets, err := chromedp.Targets(a.browser)
		if err != nil {
			a.t.Fatal(err)
		}
		for _, ti := range targets {
			if ti.Type != "iframe" {
				continue
			}
			ctx := a.attach(ti.TargetID)
			if a.named(ctx) == name {
				return ctx
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	a.t.Fatalf("no view in a frame named %s", name)
	return nil
}

// drawn waits, on the host page, until the view named name has told its
// size and kept it for 200 ms: drawn, its DOM at rest. chromedp attaching
// to a frame whose DOM changes races with itself (its Target's event
// loop against the walk of the document it reads at attachment,
// chromedp v0.23.0), which go test -race reports. A view below the fold,
// which chromium does not lay out, tells none: after 5 s it is attached
// all the same (it is not drawing either).
func (a *appsTab) drawn(name string) {
	a.t.Helper()
	q := strconv.Quote(name)
	last := "undefined"
	for range 25 {
		now := eval[string](a.t, a.ctx, `String(JSON.stringify(host.sizes[`+q+`]))`)
		if now == last && now != "undefined" {
			return
		}
		last = now
		time.Sleep(200 * time.Millisecond)
	}
}

// named is the window.name of the frame of ctx; "" where it does not
// answer within a second (a frame still loading).
func (a *appsTab) named(ctx context.Context) string {
	c, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	got, _ := chromedp.Run(c, chromedp.Evaluate[string](`window.name`))
	return got
}

func (a *appsTab) attach(id target.ID) context.Context {
	if ctx, ok := a.attached[id]; ok {
		return ctx
	}
	ctx, cancel := chromedp.NewContext(a.ctx, chromedp.WithTargetID(id))
	a.t.Cleanup(cancel)
	if err := chromedp.Listen(ctx, a.problems.Event); err != nil {
		a.t.Fatal(err)
	}
	a.attached[id] = ctx
	return ctx
}

// eval evaluates js (awaiting a promise) in ctx: the host page's or a view's.
func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluate %.100s: %v", js, err)
	}
	return v
}

// until polls js in ctx until it is true.
func until(t *testing.T, ctx context.Context, what, js string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		state, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(document.getElementById("app").dataset) + " " + document.body.innerText +
			" wider than " + window.innerWidth + ": " + [...document.querySelectorAll("*")].filter((e) => e.getBoundingClientRect().right > window.innerWidth).map((e) => e.tagName + "." + e.className + " " + Math.round(e.getBoundingClientRect().right)).join(", ")`))
		t.Fatalf("%s: %v; the view: %s", what, err, state)
	}
}

// settle waits until the frames named are as tall as their views said
// (ui/notifications/size-changed), for the screenshots.
func (a *appsTab) settle(names ...string) {
	a.t.Helper()
	for _, n := range names {
		until(a.t, a.ctx, n+" sized", `host.sizes[`+strconv.Quote(n)+`] && document.getElementById(`+strconv.Quote(n)+`).clientHeight === host.sizes[`+strconv.Quote(n)+`].height`)
	}
	time.Sleep(300 * time.Millisecond) // the frames' own paint
}

// shot saves a screenshot of the host page as name.
func (a *appsTab) shot(dir, name string) {
	a.t.Helper()
	png, err := chromedp.Run(a.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		a.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		a.t.Fatal(err)
	}
}
