package transport

import (
	"strings"
	"testing"

	"github.com/climated/climated/mcp/transport/mcptest"
)

func TestStreamableBadRequests(t *testing.T) {
	_, ts := serve(t, Options{})
	resp, body := mcptest.MCPPost(t, ts.URL, "", mcptest.InitBody)
	session := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || session == "" {
		t.Fatalf("initialize: %s %s", resp.Status, body)
	}
	mcptest.MCPPost(t, ts.URL, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	cases := []struct {
		name, session, body string
		code                int
		want                string
	}{
		{"malformed JSON", session, `{"jsonrpc":"2.0","id":2,`, 400, "malformed payload"},
		{"unknown method", session, `{"jsonrpc":"2.0","id":3,"method":"climate/now","params":{}}`, 200, "-32601"},
		{"unknown tool", session, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_weather","arguments":{}}}`, 200, "get_weather"},
		{"arguments of the wrong type", session, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":"now"}}`, 200, "arguments"},
		{"unknown session", "no-such-session", `{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{}}`, 404, "session not found"},
		{"oversized body", session, `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"pad":"` + strings.Repeat("x", DefaultMaxBodyBytes) + `"}}`, 413, "exceeds 1048576 bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, body := mcptest.MCPPost(t, ts.URL, c.session, c.body)
			if resp.StatusCode < 400 && !strings.Contains(body, `"error"`) && !strings.Contains(body, `"isError":true`) {
				t.Errorf("%s: %s %q is not an error", c.name, resp.Status, body)
			}
			if c.code != 0 && resp.StatusCode != c.code {
				t.Errorf("status %d, want %d", resp.StatusCode, c.code)
			}
			if !strings.Contains(body, c.want) {
				t.Errorf("body %q does not say %q", body, c.want)
			}
		})
	}
	resp, body = mcptest.MCPPost(t, ts.URL, session, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"say":"still here"}}}`)
	if resp.StatusCode != 200 || !strings.Contains(body, `"still here"`) {
		t.Fatalf("after bad requests: %s %s", resp.Status, body)
	}
}

func TestVersionNegotiation(t *testing.T) {
	_, ts := serve(t, Options{})
	for _, c := range []struct{ asked, want string }{
		{"2025-11-25", "2025-11-25"},
		{"2025-06-18", "2025-06-18"},
		{"2025-03-26", "2025-03-26"},
	} {
		body := strings.Replace(mcptest.InitBody, "2025-06-18", c.asked, 1)
		resp, text := mcptest.MCPPost(t, ts.URL, "", body)
		if resp.StatusCode != 200 || !strings.Contains(text, `"protocolVersion":"`+c.want+`"`) {
			t.Errorf("asked %s: %s %s, want protocolVersion %s", c.asked, resp.Status, text, c.want)
		}
		if !strings.Contains(text, `"tools":{`) || !strings.Contains(text, `"name":"bare"`) {
			t.Errorf("asked %s: capabilities or server info missing: %s", c.asked, text)
		}
	}
	// A version the server does not know is answered with one it does.
	resp, text := mcptest.MCPPost(t, ts.URL, "", strings.Replace(mcptest.InitBody, "2025-06-18", "1999-01-01", 1))
	if resp.StatusCode != 200 || strings.Contains(text, "1999-01-01") || !strings.Contains(text, `"protocolVersion":"20`) {
		t.Errorf("unknown version: %s %s", resp.Status, text)
	}
}
