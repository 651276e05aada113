package transport

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/mcp/transport/mcptest"
)

// TestStdioIDsAndCodes: over stdio too, a call before initialize gets
// -32600, an unknown method -32601, and every id comes back as sent (the
// go-sdk's IOTransport alone answers code 0 and changes the ids).
func TestStdioIDsAndCodes(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	go func() { ended <- newBare().Run(ctx, Stdio(inR, outW)) }()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		outR.Close()
		<-ended
	})
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	send := func(msg string) string {
		t.Helper()
		if _, err := inW.Write([]byte(msg + "\n")); err != nil {
			t.Fatal(err)
		}
		select {
		case l := <-lines:
			return l
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer to %s", msg)
			return ""
		}
	}
	mcptest.WantError(t, "call before initialize", send(`{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{}}`), `5`, -32600)
	init := send(`{"jsonrpc":"2.0","id":1.5,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`)
	if !strings.HasPrefix(init, `{"jsonrpc":"2.0","id":1.5,"result":{`) {
		t.Fatalf("initialize answered %.200s", init)
	}
	inW.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	for _, id := range mcptest.OddIDs {
		mcptest.WantError(t, "unknown method, id "+id, send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"no/such","params":{}}`, id)), id, -32601)
		if got := send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"ping"}`, id)); got != `{"jsonrpc":"2.0","id":`+id+`,"result":{}}` {
			t.Errorf("ping with id %s answered %s", id, got)
		}
	}
}
