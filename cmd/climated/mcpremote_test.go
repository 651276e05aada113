package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/cmd/climated/internal/oauth"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/internal/testutil/chromium"
)

// TestMCPRemoteSignsIn: mcp-remote from npm (scripts/mcp-clients, pinned
// at 0.15.1), started as a desktop assistant starts it (npx mcp-remote
// URL: the package's bin under the Node from npm) with a stdio host
// (go-sdk's CommandTransport), registers, prints the consent page's URL,
// which the owner approves in chromium allowing alerts; the browser's
// redirect is delivered to mcp-remote's callback port, and the host
// calls get_climate and create_alert. Then the owner revokes it: started
// again with its saved registration and tokens, mcp-remote is refused
// with invalid_client, throws its registration away, registers again and
// signs in (with invalid_grant it kept asking for the forgotten client).
func TestMCPRemoteSignsIn(t *testing.T) {
	node := testutil.Node(t, mcpClients)
	bctx := chromium.Browser(t)
	base, owner, cfg := oauthHubEnv(t, serveEnv{})
	saved := t.TempDir() // MCP_REMOTE_CONFIG_DIR: where it keeps its registration and tokens
	if n := runMCPRemote(t, bctx, node, base+"/mcp", owner, saved); n != 1 {
		t.Errorf("the first start asked the owner %d times, want once", n)
	}
	revokeAll(t, cfg)
	if n := runMCPRemote(t, bctx, node, base+"/mcp", owner, saved); n != 1 {
		t.Errorf("the start after the revoke asked the owner %d times, want once", n)
	}
}

// runMCPRemote starts mcp-remote for mcpURL under a stdio host, approves
// each consent page it asks for, calls the tools and stops it; it returns
// how many times it asked.
func runMCPRemote(t *testing.T, bctx context.Context, node, mcpURL, owner, saved string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bin, _ := filepath.Abs(filepath.Join(mcpClients, "node_modules/mcp-remote/dist/proxy.js"))
	cmd := exec.CommandContext(ctx, node, bin, mcpURL)
	// BROWSER=true: its opener runs true instead of a browser; the owner's
	// browser is the test's chromium, which reads the URL from stderr.
	cmd.Env = append(os.Environ(), "MCP_REMOTE_CONFIG_DIR="+saved, "BROWSER=true")
	stderr, w := io.Pipe()
	cmd.Stderr = w
	asked := make(chan int, 1)
	var log strings.Builder
	go func() { asked <- approveMCPRemote(t, bctx, owner, stderr, &log) }()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "desktop-assistant"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		w.Close()
		<-asked
		t.Fatalf("mcp-remote under a stdio host: %v\n%s", err, log.String())
	}
	useToolsOver(t, ctx, cs, &log)
	cs.Close()
	w.Close()
	return <-asked
}

// approveMCPRemote reads mcp-remote's stderr: each URL it asks the user
// to visit is approved in chromium, and where the browser is then sent
// (mcp-remote's callback on localhost) is requested, as the browser
// would. It returns how many it approved.
func approveMCPRemote(t *testing.T, bctx context.Context, owner string, stderr io.Reader, log *strings.Builder) int {
	n, next := 0, false
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		line := strings.TrimSpace(lines.Text())
		fmt.Fprintln(log, line)
		if strings.Contains(line, "Please authorize this client by visiting:") {
			next = true
			continue
		}
		if !next || !strings.HasPrefix(line, "http") {
			continue
		}
		next = false
		n++
		sent, err := chromium.Approve(bctx, line, owner, "http://localhost:", oauth.ScopeAlertsWrite)
		if err != nil {
			t.Errorf("approve mcp-remote's sign-in: %v", err)
			continue
		}
		if err := deliverCallback(sent.String()); err != nil {
			t.Errorf("deliver %s to mcp-remote: %v", sent, err)
		}
	}
	return n
}

// deliverCallback requests u, where the owner's browser was sent, once something
// listens there: mcp-remote opens its callback port only after it has
// printed the URL, and a test approves faster than a person.
func deliverCallback(u string) error {
	var err error
	for range 300 {
		var resp *http.Response
		if resp, err = http.Get(u); err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// useToolsOver calls get_climate and create_alert through cs.
func useToolsOver(t *testing.T, ctx context.Context, cs *sdk.ClientSession, log *strings.Builder) {
	t.Helper()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_climate"})
	if err != nil || res.IsError || !strings.Contains(fmt.Sprint(res.StructuredContent), "Indoor") {
		t.Fatalf("get_climate: %v %+v\n%s", err, res, log.String())
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "create_alert", Arguments: map[string]any{
		"zone": "Bedroom", "measurement": "CO2", "kind": "above", "threshold": 1200, "for": "15m"}})
	if err != nil || res.IsError {
		t.Fatalf("create_alert with the owner's grant: %v %+v\n%s", err, res, log.String())
	}
}
