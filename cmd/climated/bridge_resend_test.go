package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/cmd/climated/internal/bridge"
	"github.com/climated/climated/internal/testutil"
)

// TestBridgeResendsAfterRestart: a hub whose event stream the bridge
// cannot watch (a proxy in front answers its GET with 405) restarts
// between two calls. The bridge learns it from the 404 for its old
// session, starts a new session and sends the call there: the client
// sees no error.
func TestBridgeResendsAfterRestart(t *testing.T) {
	hubURL, token, restart := tokenHub(t)
	target, _ := url.Parse(hubURL)
	target.Path = "" // the proxy keeps the request's own path
	proxy := httputil.NewSingleHostReverseProxy(target)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			http.Error(w, "no event stream here", http.StatusMethodNotAllowed)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	defer front.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, stderr, err := bridgeClient(t, ctx, front.URL+"/mcp", []string{bridge.TokenEnv + "=" + token}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	call := func(when string) {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_climate"})
		if err != nil || res.IsError {
			t.Fatalf("get_climate %s: %v %+v\n%s", when, err, res, stderr.String())
		}
	}
	call("before the restart")
	restart()
	call("after the restart")
	for _, want := range []string{"the hub is gone: starting a new session", "new session with the hub"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("the bridge did not log %q:\n%s", want, stderr.String())
		}
	}
}

// TestBridgeHubDown: a hub that is not there fails the client's
// initialize at once, saying where the bridge looked.
func TestBridgeHubDown(t *testing.T) {
	ln := httptest.NewServer(http.NotFoundHandler())
	down := ln.URL + "/mcp"
	ln.Close() // a port nothing listens on
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, _, err := bridgeClient(t, ctx, down, nil, nil)
	if err == nil {
		t.Fatal("initialize succeeded without a hub")
	}
	if !strings.Contains(err.Error(), down) || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("the error does not say the hub is not there: %v", err)
	}
}

// TestBridgeTokenChangedOnRestart: a hub that comes back with another
// token refuses the new session; the client's next call gets that answer
// instead of waiting for ever.
func TestBridgeTokenChangedOnRestart(t *testing.T) {
	hubURL, token, restart, tokenFile := tokenHubFile(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, stderr, err := bridgeClient(t, ctx, hubURL, []string{bridge.TokenEnv + "=" + token}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	os.Remove(tokenFile) // the hub makes a new token when it starts
	restart()
	_, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_climate"})
	if err == nil || !strings.Contains(err.Error(), "Unauthorized") {
		t.Errorf("a call after the token changed: %v\n%s", err, stderr.String())
	}
	// The client's call fails as the old session ends; the bridge says
	// why once its new session has been refused, a moment later (the hub
	// now takes its port first, so that moment can come after the call).
	if !testutil.Eventually(func() bool { return strings.Contains(stderr.String(), "the restarted hub refuses the session") }) {
		t.Fatalf("the bridge did not say why:\n%s", stderr.String())
	}
}
