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

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/internal/testutil/chromium"
)

// TestTypeScriptOAuth: the TypeScript SDK's OAuth client provider
// (scripts/mcp-clients/ts-oauth.mjs) signs in to a running hub, by DCR
// and by a Client ID Metadata Document; the owner approves in chromium,
// the script finishes the sign-in with the code and reads get_climate.
func TestTypeScriptOAuth(t *testing.T) {
	node := testutil.Node(t, mcpClients)
	bctx := chromium.Browser(t)
	t.Run("DCR", func(t *testing.T) {
		const redirect = "http://127.0.0.1:9/ts-callback"
		base, owner := oauthHub(t, nil)
		tsSignIn(t, bctx, node, owner, redirect, base+"/mcp", redirect)
	})
	t.Run("CIMD", func(t *testing.T) {
		const redirect = "http://127.0.0.1:9/ts-cimd-callback"
		docs := newClientDocs(t, "TypeScript SDK by its document", redirect)
		base, owner := oauthHub(t, docs.trust)
		tsSignIn(t, bctx, node, owner, redirect, base+"/mcp", redirect, docs.URL+"/ts-client.json")
		if docs.fetched.Load() == 0 {
			t.Error("the hub never fetched the client's document")
		}
	})
}

// tsSignIn runs ts-oauth.mjs with args: the URL it prints is approved in
// chromium, where the browser is sent back to goes to its stdin, and its
// get_climate must show the house.
func tsSignIn(t *testing.T, bctx context.Context, node, owner, redirect string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
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
		if u, ok := strings.CutPrefix(line, "AUTHORIZE "); ok {
			sent, err := chromium.Approve(bctx, u, owner, redirect)
			if err != nil {
				t.Error(err)
				stdin.Close() // the script ends at once: no redirect on stdin
				continue
			}
			fmt.Fprintln(stdin, sent)
		}
	}
	io.Copy(io.Discard, stdout)
	err := cmd.Wait()
	all := strings.Join(out, "\n")
	if err != nil || !strings.Contains(all, "\nok") || !strings.Contains(all, `CLIMATE {"Balcony":`) {
		t.Fatalf("ts-oauth.mjs: %v\n%s\n%s", err, all, stderr.String())
	}
}
