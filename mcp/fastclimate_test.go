package mcp

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

const plainClimateCall = `{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":"get_climate","arguments":{}}}`

func climateCall(id string) string { return strings.Replace(plainClimateCall, "ID", id, 1) }

// openSession initializes a Streamable HTTP session and returns its id.
func openSession(t *testing.T, base string) string {
	t.Helper()
	resp, body := mcpPost(t, base, "", initBody)
	session := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || session == "" {
		t.Fatalf("initialize: %s %s", resp.Status, body)
	}
	mcpPost(t, base, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return session
}

// The SDK streams its answer (no Content-Length); a kept answer is written
// whole, with one. That tells the two apart from outside.
func replayed(h http.Header) bool { return h.Get("Content-Length") != "" }

// TestGetClimateReplay: a session's second plain get_climate on the same
// snapshot is answered from the SDK's first answer, byte for byte under
// its own id; a call with _meta, other headers or a new snapshot reaches
// the SDK again, and an ended session's calls are not answered.
func TestGetClimateReplay(t *testing.T) {
	h := newTestHub(t)
	session := openSession(t, h.http.URL)
	first, body1 := mcpPost(t, h.http.URL, session, climateCall("2"))
	second, body2 := mcpPost(t, h.http.URL, session, climateCall(`"call-3"`))
	if first.StatusCode != 200 || replayed(first.Header) || !strings.Contains(body1, `"structuredContent"`) {
		t.Fatalf("first call (SDK): %s %d %q", first.Status, first.ContentLength, body1)
	}
	if !replayed(second.Header) {
		t.Fatalf("second call on the same snapshot reached the SDK")
	}
	if want := strings.Replace(body1, `"id":2,`, `"id":"call-3",`, 1); body2 != want {
		t.Errorf("replayed answer\n%q\nwant the SDK's\n%q", body2, want)
	}
	// The store makes a new snapshot every second; the same house in it
	// is the same answer.
	time.Sleep(1100 * time.Millisecond)
	if resp, _ := mcpPost(t, h.http.URL, session, climateCall("8")); !replayed(resp.Header) {
		t.Errorf("a call a second later, the house unchanged, reached the SDK")
	}
	for _, k := range []string{"Content-Type", "Cache-Control"} {
		if first.Header.Get(k) != second.Header.Get(k) {
			t.Errorf("%s: replayed %q, SDK %q", k, second.Header.Get(k), first.Header.Get(k))
		}
	}

	withMeta := `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_climate","arguments":{},"_meta":{"progressToken":"p"}}}`
	if resp, body := mcpPost(t, h.http.URL, session, withMeta); replayed(resp.Header) || !strings.Contains(body, `"id":4`) {
		t.Errorf("a call with _meta was answered from a kept answer: %q", body)
	}
	other := openSession(t, h.http.URL)
	if resp, _ := mcpPost(t, h.http.URL, other, climateCall("5")); replayed(resp.Header) {
		t.Errorf("another session got this session's kept answer")
	}

	now := time.Now()
	if err := h.store.Record(context.Background(), []sensors.Reading{{Zone: "Indoor", Measurement: sensors.Temperature, Value: 23.9, Time: now, Source: "test"}}); err != nil {
		t.Fatal(err)
	}
	if err := h.store.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if resp, body := mcpPost(t, h.http.URL, session, climateCall("6")); replayed(resp.Header) || !strings.Contains(body, `23.9`) {
		t.Errorf("after a new reading: replayed %v, %q", replayed(resp.Header), body)
	}

	req, _ := http.NewRequest(http.MethodDelete, h.http.URL+"/mcp", nil)
	req.Header.Set("Mcp-Session-Id", session)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %v %v", resp, err)
	}
	if resp, body := mcpPost(t, h.http.URL, session, climateCall("7")); resp.StatusCode != http.StatusNotFound {
		t.Errorf("call after DELETE: %s %q, want 404", resp.Status, body)
	}
}

func TestReplayable(t *testing.T) {
	cases := []struct {
		msg    string
		modern bool
		want   bool
	}{
		{climateCall("1"), false, true},
		{`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"get_climate"}}`, false, true},
		{` { "params" : { "arguments" : { } , "name" : "get_climate" }, "method":"tools/call", "id":9, "jsonrpc":"2.0"}`, false, true},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_climate","arguments":null}}`, false, false},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_climate","arguments":{"zone":"x"}}}`, false, false},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_climate","_meta":{}}}`, false, false},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"Name":"get_climate"}}`, false, false},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_history"}}`, false, false},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_climate"},"extra":1}`, false, false},
		{`{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{"name":"get_climate"}}`, false, false},
		{`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"get_climate"}}`, false, false},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"name":"get_climate"}}`, false, false},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_climate","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, true, true},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_climate","_meta":{"progressToken":"p"}}}`, true, false},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_climate","_meta":{},"x":1}}`, true, false},
	}
	for _, c := range cases {
		if _, got := replayable([]byte(c.msg), envelopeOf([]byte(c.msg)), c.modern); got != c.want {
			t.Errorf("replayable(%s, modern %v) = %v, want %v", c.msg, c.modern, got, c.want)
		}
	}
}

// TestGetClimateReplayNewProtocol: protocol 2026-07-28 has no sessions; a
// get_climate call with the same params and headers as one the SDK
// answered gets that answer under its own id; the go-sdk client reads a
// replayed answer as it reads the SDK's, at 2026-07-28 and in a session.
func TestGetClimateReplayNewProtocol(t *testing.T) {
	h := newTestHub(t)
	post := func(id string) (http.Header, string) {
		t.Helper()
		body := `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{},` +
			`"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"get_climate","arguments":{}}}`
		code, hdr, answer := rawPost(t, h.http.URL+"/mcp", map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "get_climate"}, body)
		if code != 200 || !strings.Contains(answer, `"structuredContent"`) {
			t.Fatalf("call %s: %d %q", id, code, answer)
		}
		return hdr, answer
	}
	_, body1 := post("2")
	second, body2 := post("3")
	if !replayed(second) || strings.Replace(body1, `"id":2,`, `"id":3,`, 1) != body2 {
		t.Errorf("second call: replayed %v\n%q\nwant the SDK's\n%q", replayed(second), body2, body1)
	}

	for _, version := range []string{"", "2025-06-18"} { // 2026-07-28, and a session
		cs := connectAt(t, &sdk.StreamableClientTransport{Endpoint: h.http.URL + "/mcp", DisableStandaloneSSE: true}, nil, version)
		var texts []string
		for range 3 {
			res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: ToolGetClimate, Arguments: map[string]any{}})
			if err != nil || res.IsError || res.StructuredContent == nil {
				t.Fatalf("go-sdk client %q: %v %+v", version, err, res)
			}
			texts = append(texts, res.Content[0].(*sdk.TextContent).Text)
		}
		if texts[0] != texts[2] || !strings.Contains(texts[0], `"Indoor"`) {
			t.Errorf("go-sdk client %q read %q, then %q", version, texts[0], texts[2])
		}
	}
}

// TestGetClimateReplayConcurrent: eight calls at a time on one session
// (its in-flight limit), as perf.sh makes them; each gets its own id.
func TestGetClimateReplayConcurrent(t *testing.T) {
	h := newTestHub(t)
	session := openSession(t, h.http.URL)
	var wg sync.WaitGroup
	for g := range DefaultMaxInFlight {
		wg.Go(func() {
			for i := range 20 {
				id := fmt.Sprintf(`"g%d-%d"`, g, i)
				code, _, body := rawPost(t, h.http.URL+"/mcp", map[string]string{"Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18"}, climateCall(id))
				if code != 200 || !strings.Contains(body, `"id":`+id+`,"result":{`) {
					t.Errorf("call %s: %d %q", id, code, body)
					return
				}
			}
		})
	}
	wg.Wait()
}
