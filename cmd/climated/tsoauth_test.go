package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/oauth"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/internal/testutil/chromium"
)

// TestTypeScriptOAuth: the TypeScript SDK's OAuth client provider
// (scripts/mcp-clients/ts-oauth.mjs) signs in to a running hub, by DCR
// and by a Client ID Metadata Document, on /mcp and on /sse (the SDK's
// SSE client transport, which refuses resource metadata that is not
// /sse's); the owner approves in chromium allowing alerts, the script
// finishes the sign-in with the code and calls get_climate and
// create_alert. Then the owner revokes it; connecting again with what it
// kept, it is refused with invalid_client, throws its registration away,
// registers again and signs in.
func TestTypeScriptOAuth(t *testing.T) {
	node := testutil.Node(t, mcpClients)
	bctx := chromium.Browser(t)
	t.Run("DCR", func(t *testing.T) {
		const redirect = "http://127.0.0.1:9/ts-callback"
		base, owner, cfg := oauthHubEnv(t, serveEnv{})
		tsSignIn(t, bctx, node, owner, redirect, func() { revokeAll(t, cfg) }, base+"/mcp", redirect)
	})
	t.Run("SSE", func(t *testing.T) {
		const redirect = "http://127.0.0.1:9/ts-sse-callback"
		base, owner, cfg := oauthHubEnv(t, serveEnv{})
		tsSignIn(t, bctx, node, owner, redirect, func() { revokeAll(t, cfg) }, base+"/sse", redirect)
	})
	t.Run("CIMD", func(t *testing.T) {
		const redirect = "http://127.0.0.1:9/ts-cimd-callback"
		docs := newClientDocs(t, "TypeScript SDK by its document", redirect)
		base, owner := oauthHub(t, docs.trust)
		tsSignIn(t, bctx, node, owner, redirect, nil, base+"/mcp", redirect, docs.URL+"/ts-client.json")
		if docs.fetched.Load() == 0 {
			t.Error("the hub never fetched the client's document")
		}
	})
}

// tsSignIn runs ts-oauth.mjs with args: each URL it prints is approved
// in chromium with alerts allowed, where the browser is sent back to goes
// to its stdin, and its get_climate must show the house. Once signed in,
// between (when not nil) runs and the script connects again; then it
// ends.
func tsSignIn(t *testing.T, bctx context.Context, node, owner, redirect string, between func(), args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 110*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{"ts-oauth.mjs"}, args...)...)
	cmd.Dir = mcpClients
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var out []string
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		line := lines.Text()
		out = append(out, line)
		switch u, ok := strings.CutPrefix(line, "AUTHORIZE "); {
		case ok:
			sent, err := chromium.Approve(bctx, u, owner, redirect, oauth.ScopeAlertsWrite)
			if err != nil {
				t.Error(err)
				stdin.Close() // the script ends at once: no redirect on stdin
				continue
			}
			fmt.Fprintln(stdin, sent)
		case line == "SIGNED-IN" && between != nil:
			between()
			between = nil
			fmt.Fprintln(stdin, "again")
		case line == "SIGNED-IN":
			stdin.Close()
		}
	}
	io.Copy(io.Discard, stdout)
	err := cmd.Wait()
	all := strings.Join(out, "\n")
	if err != nil || !strings.Contains(all, "\nok") || strings.Count(all, `CLIMATE {"Balcony":`) != strings.Count(all, "SIGNED-IN") {
		t.Fatalf("ts-oauth.mjs: %v\n%s\n%s", err, all, stderr.String())
	}
	t.Logf("ts-oauth.mjs:\n%s", all)
}
