package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/cmd/climated/internal/bridge"
	tokenfile "github.com/climated/climated/cmd/climated/internal/token"
	"github.com/climated/climated/internal/testutil"
)

// tokenHub runs a demo hub that needs its bearer token (it listens beyond
// loopback) and returns it with its MCP URL on loopback, its token and a
// restart function (the token is read again at each start).
func tokenHub(t *testing.T) (url, token string, restart func()) {
	url, token, restart, _ = tokenHubFile(t)
	return url, token, restart
}

func tokenHubFile(t *testing.T) (url, token string, restart func(), tokenFile string) {
	t.Helper()
	cfg := demoConfig(t)
	cfg.Demo.Interval = time.Second // so that a subscription sees an update soon
	cfg.Listen = "0.0.0.0:0"
	cfg.Discovery = new(false) // no multicast onto the machine's own network
	h, stop := runHub(t, cfg)
	port := h.Addr.(*net.TCPAddr).Port
	cfg.Listen = fmt.Sprintf("0.0.0.0:%d", port) // the same port after a restart
	token, err := tokenfile.LoadOrCreate(cfg.TokenPath())
	if err != nil {
		t.Fatal(err)
	}
	restart = func() {
		stop()
		_, stop = runHub(t, cfg)
	}
	return fmt.Sprintf("http://127.0.0.1:%d/mcp", port), token, restart, cfg.TokenPath()
}

// TestBridgeTypeScriptClient drives the official TypeScript SDK client over
// stdio through climated mcp --remote (the real process) to a real hub that
// wants its token, and restarts the hub in the middle of the session: the
// bridge must start a new session, initialize it and subscribe again
// without the client noticing.
func TestBridgeTypeScriptClient(t *testing.T) {
	t.Parallel() // its own hub, bridge and Node; beside the log budget's minute
	node := testutil.Node(t, mcpClients)
	sdkDir, err := filepath.Abs(filepath.Join(mcpClients, "node_modules/@modelcontextprotocol/sdk"))
	if err != nil {
		t.Fatal(err)
	}
	url, token, restart := tokenHub(t)
	tokenFile := filepath.Join(t.TempDir(), "token")
	os.WriteFile(tokenFile, []byte(token+"\n"), 0o600)
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".config", "climated"), 0o700)
	os.WriteFile(filepath.Join(home, ".config", "climated", "token"), []byte(token+"\n"), 0o600)
	for _, c := range []struct {
		name string
		args []string
		env  []string
	}{
		{"token file", []string{"--token-file", tokenFile}, nil},
		{"token in the environment", nil, []string{bridge.TokenEnv + "=" + token}},
		{"token in the user's file", nil, []string{bridge.TokenEnv + "=", "HOME=" + home, "XDG_CONFIG_HOME="}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
			defer cancel()
			args := append([]string{"testdata/ts-bridge.mjs", sdkDir, os.Args[0], "mcp", "--remote", url}, c.args...)
			cmd := exec.CommandContext(ctx, node, args...)
			cmd.Env = append(append(os.Environ(), "CLIMATED_RUN_MAIN=1"), c.env...)
			stdin, _ := cmd.StdinPipe()
			stdout, _ := cmd.StdoutPipe()
			var stderr testutil.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			lines := bufio.NewScanner(stdout)
			restarted := false
			for lines.Scan() {
				out.WriteString(lines.Text() + "\n")
				if lines.Text() == "restart the hub" {
					restart()
					restarted = true
					io.WriteString(stdin, "the hub is back\n")
				}
			}
			err := cmd.Wait()
			if err != nil || !restarted || !strings.Contains(out.String(), "9 passed, 0 failed") {
				t.Fatalf("ts-bridge: %v\n%s\n%s", err, out.String(), stderr.String())
			}
			if !strings.Contains(stderr.String(), "new session with the hub") {
				t.Errorf("the bridge did not log its new session:\n%s", stderr.String())
			}
		})
	}
}

// TestBridgeWrongToken: a hub that refuses the token makes the client's
// initialize fail with the hub's answer, not hang.
func TestBridgeWrongToken(t *testing.T) {
	url, _, _ := tokenHub(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, stderr, err := bridgeClient(t, ctx, url, []string{bridge.TokenEnv + "=wrong-token-0123456789"}, nil)
	if err == nil {
		t.Fatal("initialize with a wrong token succeeded")
	}
	if !strings.Contains(err.Error(), "Unauthorized") || !strings.Contains(err.Error(), url) {
		t.Errorf("the error does not say the hub refused the token: %v\n%s", err, stderr.String())
	}
	// And it says what to do.
	for _, want := range []string{"the hub refused the bearer token", "climated token", "$" + bridge.TokenEnv, "--token-file", bridge.UserTokenFile()} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, err)
		}
	}
}

// TestBridgeBadFlags: mistakes are caught before anything is sent.
func TestBridgeBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "--remote", "hub.local:8473"}, "want the hub's Streamable HTTP URL"},
		{[]string{"mcp", "--remote", "http://127.0.0.1:1/mcp", "--token-file", "/nonexistent/token"}, "climated token prints the token"},
		{[]string{"mcp", "--token-file", "/x"}, "--token-file is for --remote"},
		{[]string{"mcp", "--remote", "http://127.0.0.1:1/mcp", "--token", "x"}, "flag provided but not defined: -token"},
	} {
		out, err := climated(c.args...).CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), c.want) {
			t.Errorf("%v: exit %v, want 2 and %q:\n%s", c.args, err, c.want, out)
		}
	}
}

// bridgeClient starts climated mcp --remote hubURL as a real process with
// env added, and connects a go-sdk client to it over stdio. The error is
// Connect's; the buffer collects the bridge's log.
func bridgeClient(t *testing.T, ctx context.Context, hubURL string, env []string, opts *sdk.ClientOptions) (*sdk.ClientSession, *testutil.Buffer, error) {
	t.Helper()
	cmd := climated("mcp", "--remote", hubURL)
	cmd.Env = append(cmd.Env, env...)
	stderr := &testutil.Buffer{}
	cmd.Stderr = stderr
	client := sdk.NewClient(&sdk.Implementation{Name: "bridge-test", Version: "1"}, opts)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, stderr, err
}

// TestBridgeOnTheHubWithoutItsConfig: the README's recipe for an
// assistant on the hub itself is climated mcp --remote
// http://127.0.0.1:8473/mcp, by a user who cannot read the installed
// /etc/climated/climated.yaml (root:climated 0750). The bridge and
// connect --remote need nothing of it: an installed file they cannot use
// (here one that does not load, as root reads any file) does not stop
// them, while a --config named on the command line still must load.
func TestBridgeOnTheHubWithoutItsConfig(t *testing.T) {
	h, _ := runHub(t, demoConfig(t))
	url := fmt.Sprintf("http://%s/mcp", h.Addr)
	dir := t.TempDir()
	bad := filepath.Join(dir, "climated.yaml")
	os.WriteFile(bad, []byte("listen: [\n"), 0o640)
	installed := "CLIMATED_TEST_INSTALLED=" + bad + string(os.PathListSeparator) + dir
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, stderr, err := bridgeClient(t, ctx, url, []string{installed}, nil)
	if err != nil {
		t.Fatalf("the bridge with an installed file it cannot load: %v\n%s", err, stderr.String())
	}
	if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_climate"}); err != nil {
		t.Errorf("get_climate through the bridge: %v", err)
	}
	cmd := climated("connect", "claude-desktop", "--remote", url)
	cmd.Env = append(cmd.Env, installed, "HOME="+dir)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), `"args": ["mcp", "--remote", "`+url+`"]`) {
		t.Errorf("connect --remote with an installed file it cannot load: %v\n%s", err, out)
	}
	if out, err := climated("mcp", "--remote", url, "--config", bad).CombinedOutput(); err == nil || !strings.Contains(string(out), "climated.yaml:1") {
		t.Errorf("mcp --remote --config BAD: %v, want the file's error\n%s", err, out)
	}
}

// TestBridgeNoToken: a hub that wants a token the bridge does not have
// says so, and where to put one.
func TestBridgeNoToken(t *testing.T) {
	url, _, _ := tokenHub(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	config := t.TempDir()
	_, stderr, err := bridgeClient(t, ctx, url, []string{bridge.TokenEnv + "=", "XDG_CONFIG_HOME=" + config}, nil)
	if err == nil {
		t.Fatal("initialize without a token succeeded")
	}
	for _, want := range []string{"the hub wants a bearer token and none was sent", "climated token", "--token-file", filepath.Join(config, "climated", "token")} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v\n%s", want, err, stderr.String())
		}
	}
}
