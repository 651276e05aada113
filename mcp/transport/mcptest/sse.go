package mcptest

import (
	"bufio"
	"net/http"
	"strings"
	"testing"
	"time"
)

// SSEEvent is one server-sent event.
type SSEEvent struct{ Name, Data string }

// SSEStream reads events from an open GET /sse response.
type SSEStream struct {
	t    *testing.T
	Resp *http.Response // the GET /sse response, closed when the test ends
	r    *bufio.Reader
}

// OpenSSE opens an HTTP+SSE session at base with GET /sse.
func OpenSSE(t *testing.T, base string) *SSEStream {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/sse", nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("GET /sse: %s, Content-Type %q", resp.Status, resp.Header.Get("Content-Type"))
	}
	return &SSEStream{t: t, Resp: resp, r: bufio.NewReader(resp.Body)}
}

// Next is the next event, read within 10 s.
func (s *SSEStream) Next() SSEEvent {
	s.t.Helper()
	var ev SSEEvent
	done := make(chan error, 1)
	go func() {
		for {
			line, err := s.r.ReadString('\n')
			if err != nil {
				done <- err
				return
			}
			line = strings.TrimRight(line, "\r\n")
			switch {
			case line == "" && (ev.Name != "" || ev.Data != ""):
				done <- nil
				return
			case strings.HasPrefix(line, "event:"):
				ev.Name = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
			case strings.HasPrefix(line, "data:"):
				ev.Data += strings.TrimSpace(strings.TrimPrefix(line, "data:"))
			}
		}
	}()
	select {
	case err := <-done:
		if err != nil {
			s.t.Fatalf("read event: %v", err)
		}
	case <-time.After(10 * time.Second):
		s.t.Fatal("no event within 10 s")
	}
	return ev
}

// SSEInitialize runs the handshake on an open SSE session.
func SSEInitialize(t *testing.T, stream *SSEStream, endpoint string) {
	t.Helper()
	if code, text := Post(t, endpoint, "application/json", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"plain","version":"1"}}}`); code != http.StatusAccepted {
		t.Fatalf("initialize: %d %s", code, text)
	}
	if ev := stream.Next(); !strings.Contains(ev.Data, `"protocolVersion"`) {
		t.Fatalf("initialize answered %+v", ev)
	}
	if code, text := Post(t, endpoint, "application/json", `{"jsonrpc":"2.0","method":"notifications/initialized"}`); code != http.StatusAccepted {
		t.Fatalf("initialized: %d %s", code, text)
	}
}

// Post sends body to url and reads the whole answer.
func Post(t *testing.T, url, contentType, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, contentType, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	bufio.NewReader(resp.Body).WriteTo(&b)
	return resp.StatusCode, b.String()
}
