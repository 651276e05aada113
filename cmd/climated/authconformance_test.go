package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/internal/testutil/chromium"
)

// conformanceSuite is the MCP conformance suite scripts/mcp-clients
// installs; from 0.2.0 it has scenarios for an authorization server.
const conformanceSuite = "node_modules/@modelcontextprotocol/conformance/dist/index.js"

// allPassed is the suite's last word when every check passed.
var allPassed = regexp.MustCompile(`Total: [1-9][0-9]* passed, 0 failed`)

// TestConformanceAuthorization runs the conformance suite's
// authorization server scenarios against a running hub:
// authorization-server-metadata-endpoint (RFC 8414 metadata, with Client
// ID Metadata Documents) and authorization-code-grant, whose consent the
// owner approves in chromium; the suite's own callback server then gets
// the redirect and redeems the code.
func TestConformanceAuthorization(t *testing.T) {
	node := testutil.Node(t, mcpClients)
	bctx := chromium.Browser(t)
	base, owner := oauthHub(t, nil)
	port := testutil.FreePort(t)
	callback := "http://127.0.0.1:" + port + "/callback"
	client := registerClient(t, base, "MCP conformance suite", callback)

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, conformanceSuite, "authorization", "--url", base,
		"--client-id", client, "--resource", base+"/mcp", "--port", port)
	cmd.Dir = mcpClients
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		line := lines.Text()
		out.WriteString(line + "\n")
		if strings.HasPrefix(line, base+"/authorize?") && !deliver(t, bctx, line, owner, callback) {
			cancel() // else the suite waits five minutes for its callback
		}
	}
	io.Copy(io.Discard, stdout)
	err := cmd.Wait()
	for _, want := range []string{"✓ authorization-server-metadata-endpoint: ", "✓ authorization-code-grant: "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the suite did not say %q", want)
		}
	}
	if !allPassed.MatchString(out.String()) {
		t.Error("the suite did not say every check passed")
	}
	if err != nil || t.Failed() {
		t.Fatalf("conformance authorization: %v\n%s", err, out.String())
	}
	t.Log(out.String()[strings.LastIndex(out.String(), "=== SUMMARY"):])
}

// deliver approves authorizeURL in chromium and hands where the browser
// was sent to the suite's callback server, as the browser would have.
func deliver(t *testing.T, bctx context.Context, authorizeURL, owner, callback string) bool {
	t.Helper()
	sent, err := chromium.Approve(bctx, authorizeURL, owner, callback)
	if err != nil {
		t.Error(err)
		return false
	}
	resp, err := http.Get(sent.String())
	if err != nil {
		t.Error(err)
		return false
	}
	resp.Body.Close()
	return true
}

// registerClient registers a public client by DCR and returns its id.
func registerClient(t *testing.T, base, name, redirect string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"client_name": name, "redirect_uris": []string{redirect}})
	resp, err := http.Post(base+"/register", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var reg struct {
		ClientID string `json:"client_id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&reg); err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("register: %d %v", resp.StatusCode, err)
	}
	return reg.ClientID
}
