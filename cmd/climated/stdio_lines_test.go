package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
)

// TestStdioMalformedLines feeds the real climated mcp process lines that
// are not JSON-RPC among good ones: each bad line gets its error answer
// and the session carries on to the end of stdin.
func TestStdioMalformedLines(t *testing.T) {
	cfg := demoConfig(t)
	startHub(t, cfg)
	cmd := climated("mcp", "--db", cfg.Database)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr testutil.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	watchdog := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	defer watchdog.Stop()

	lines := bufio.NewScanner(stdout)
	lines.Buffer(nil, 1<<20)
	// exchange writes one line and returns the next answer.
	exchange := func(line string) map[string]any {
		t.Helper()
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatalf("write %q: %v\n%s", line, err, stderr.String())
		}
		if !lines.Scan() {
			t.Fatalf("no answer to %q (the server ended?)\n%s", line, stderr.String())
		}
		var m map[string]any
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatalf("answer to %q is not JSON: %s", line, lines.Bytes())
		}
		return m
	}
	errorOf := func(m map[string]any) (float64, any) {
		e, _ := m["error"].(map[string]any)
		code, _ := e["code"].(float64)
		return code, m["id"]
	}

	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	if m := exchange(init); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	i := 100
	for _, c := range []struct {
		line string
		code float64
		id   any
	}{
		{`this is not json`, -32700, nil},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/list"`, -32700, nil}, // cut short
		{`{"jsonrpc":"2.0","id":3}`, -32600, 3.0},                      // neither call nor answer
		{"\x00\x01garbage", -32700, nil},
	} {
		i++
		code, id := errorOf(exchange(c.line))
		if code != c.code || id != c.id {
			t.Errorf("%q: answered code %v id %v, want %v id %v", c.line, code, id, c.code, c.id)
		}
		// The session carries on: a real call still works.
		m := exchange(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"get_climate","arguments":{}}}`, i))
		if m["result"] == nil {
			t.Fatalf("after %q the server no longer answers: %v\n%s", c.line, m, stderr.String())
		}
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit after stdin ended: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "bad message on stdin") {
		t.Errorf("stderr does not log the bad lines:\n%s", stderr.String())
	}
}
