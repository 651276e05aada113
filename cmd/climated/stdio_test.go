package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/internal/testutil"
)

// TestStdioBesideTheDaemon runs the hub in this process and "climated mcp"
// as a real child process on the same database, driven by the go-sdk
// client over the child's stdin and stdout.
func TestStdioBesideTheDaemon(t *testing.T) {
	cfg := demoConfig(t)
	startHub(t, cfg)

	cmd := climated("mcp", "--db", cfg.Database)
	var stderr testutil.Buffer
	cmd.Stderr = &stderr
	client := sdk.NewClient(&sdk.Implementation{Name: "stdio-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	ctx := context.Background()
	if !strings.Contains(cs.InitializeResult().Instructions, "SIMULATED") {
		t.Error("the stdio server does not say the demo data is simulated")
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_climate"})
	if err != nil || res.IsError {
		t.Fatalf("get_climate: %v %+v", err, res)
	}
	var c map[string]map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].(*sdk.TextContent).Text), &c); err != nil {
		t.Fatal(err)
	}
	for zone := range wantKeys {
		if c[zone]["When"] == nil {
			t.Errorf("zone %s missing over stdio: %v", zone, c)
		}
	}
	hist, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "climate://history/Balcony/Temperature?from=6h&step=1h"})
	if err != nil || !strings.Contains(hist.Contents[0].Text, `"summary":{"count":`) {
		t.Errorf("history over stdio: %v %+v", err, hist)
	}
	if !strings.Contains(stderr.String(), "serving MCP on stdio") {
		t.Errorf("stderr: %s", stderr.String())
	}
}

func TestStdioWithoutDatabase(t *testing.T) {
	out, err := climated("mcp", "--db", t.TempDir()+"/none.db").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "start climated serve first") {
		t.Errorf("exit %v: %s", err, out)
	}
}

// `printf '…initialize…\n' | climated mcp` printed nothing: the SDK
// ends the session at the end of its input, before the requests it has
// read are answered. Now every request piped in, the input closed at
// once, gets its answer before climated mcp exits (a notification gets
// none), and it exits 0; the bridge to a hub (mcp --remote) keeps the
// same rule.
func TestStdioAnswersWhatWasPipedBeforeTheEnd(t *testing.T) {
	cfg := demoConfig(t)
	hub := startHub(t, cfg)
	for name, args := range map[string][]string{
		"mcp":          {"mcp", "--db", cfg.Database},
		"mcp --remote": {"mcp", "--remote", "http://" + hub.Addr.String() + "/mcp"},
	} {
		t.Run(name, func(t *testing.T) { pipedAnswered(t, args) })
	}
}

func pipedAnswered(t *testing.T, args []string) {
	cmd := climated(args...)
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":"three","method":"tools/call","params":{"name":"get_climate","arguments":{}}}
`)
	var stderr testutil.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("climated %v: %v\n%s", args, err, stderr.String())
	}
	got := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil || m.Result == nil {
			t.Errorf("line %q: %v, want a result", line, err)
			continue
		}
		got[string(m.ID)] = true
	}
	for _, id := range []string{`1`, `2`, `"three"`} {
		if !got[id] {
			t.Errorf("no answer to request %s; stdout:\n%s\nstderr:\n%s", id, out, stderr.String())
		}
	}
}
