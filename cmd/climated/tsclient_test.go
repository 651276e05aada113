package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
)

// mcpClients is where scripts/mcp-clients/install.sh puts the TypeScript
// SDK, the conformance suite and Node 22 (scripts/test.sh runs it first).
const mcpClients = "../../scripts/mcp-clients"

// TestTypeScriptClient drives the hub with the official TypeScript SDK
// client over Streamable HTTP, the SSE transport and stdio.
func TestTypeScriptClient(t *testing.T) {
	t.Parallel() // its own hub and Node processes; beside the log budget's minute
	node := testutil.Node(t, mcpClients)
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
			if err != nil || !strings.Contains(string(out), "19 passed, 0 failed") {
				t.Fatalf("ts-client %s: %v\n%s", c.mode, err, out)
			}
		})
	}
}
