package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
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

	cmd := climated("mcp", "--remote", front.URL+"/mcp")
	cmd.Env = append(cmd.Env, tokenEnv+"="+token)
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "bridge-resend-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
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
	cmd := climated("mcp", "--remote", down)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "bridge-down-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err == nil {
		cs.Close()
		t.Fatal("initialize succeeded without a hub")
	}
	if !strings.Contains(err.Error(), down) || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("the error does not say the hub is not there: %v", err)
	}
}
