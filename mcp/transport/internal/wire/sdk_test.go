package wire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tests of this file check the go-sdk, not this package: each fails
// once the SDK does what a piece of this package does for it, and says
// which piece can then be deleted.

// TestSDKChangesIDs: the SDK changes each of these ids on its way
// through (ids.go).
func TestSDKChangesIDs(t *testing.T) {
	for _, id := range []string{`9007199254740993`, `1e308`, `1.5`, `-0`, `"a\u0041"`} {
		if Kept([]byte(id)) {
			t.Errorf("the go-sdk now carries id %s through unchanged: ids.go may go once no id is left here", id)
		}
	}
}

// bareServer is an SDK server with nothing of climated's, over the SDK's
// Streamable HTTP handler on loopback.
func bareServer(t *testing.T) (*sdk.Server, string) {
	t.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: "bare", Version: "1"}, nil)
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	return srv, ts.URL
}

// post sends body with headers and returns the status and answer; a
// call the SDK keeps open (subscriptions/listen) comes back as status 0.
func post(t *testing.T, url string, headers map[string]string, body string) (int, http.Header, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	r, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		r.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		return 0, nil, ""
	}
	defer resp.Body.Close()
	var text bytes.Buffer
	text.ReadFrom(resp.Body)
	return resp.StatusCode, resp.Header, text.String()
}

// session opens a session at protocol 2025-06-18 and returns its headers.
func session(t *testing.T, url string) map[string]string {
	t.Helper()
	code, hdr, body := post(t, url, nil, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if code != http.StatusOK || hdr.Get("Mcp-Session-Id") == "" {
		t.Fatalf("initialize: %d %s", code, body)
	}
	h := map[string]string{"Mcp-Session-Id": hdr.Get("Mcp-Session-Id"), "Mcp-Protocol-Version": "2025-06-18"}
	post(t, url, h, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return h
}

// unsupported reports whether the SDK's handler refuses method with its
// plain-text 400.
func unsupported(t *testing.T, url string, h map[string]string, method string, call bool) bool {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":{}}`, method)
	if call {
		body = fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":{}}`, method)
	}
	code, _, text := post(t, url, h, body)
	return code == http.StatusBadRequest && strings.Contains(text, "unsupported")
}

// TestSDKAnswersUnknownMethodsInPlainText: the SDK's Streamable HTTP
// handler answers an unknown method with HTTP 400 and plain text, not
// JSON-RPC -32601 (methods.go).
func TestSDKAnswersUnknownMethodsInPlainText(t *testing.T) {
	_, url := bareServer(t)
	h := session(t, url)
	code, _, text := post(t, url, h, `{"jsonrpc":"2.0","id":3,"method":"climate/now","params":{}}`)
	if code != http.StatusBadRequest || strings.Contains(text, "-32601") {
		t.Errorf("the go-sdk answers an unknown method %d %q: if that is JSON-RPC -32601, methods.go may go", code, text)
	}
}

// TestKnownMethods pins the list of known methods against the SDK: every
// method on it passes the SDK's own check, and one off it does not.
func TestKnownMethods(t *testing.T) {
	_, url := bareServer(t)
	h := session(t, url)
	for method := range known {
		if unsupported(t, url, h, method, !strings.HasPrefix(method, "notifications/")) {
			t.Errorf("%s is known here but the SDK does not serve it", method)
		}
	}
	if !unsupported(t, url, h, "climate/now", true) {
		t.Error("the SDK serves climate/now: this test no longer tells")
	}
}

// TestSDKAnswersCallBeforeInitializeWithoutCode: over a session, the SDK
// answers a call before initialize, and a handler's error without a
// JSON-RPC code, with code 0 (initialize.go).
func TestSDKAnswersCallBeforeInitializeWithoutCode(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "bare", Version: "1"}, nil)
	srv.AddResource(&sdk.Resource{URI: "test://broken", Name: "broken"}, func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		return nil, errors.New("broken")
	})
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	conn, err := ct.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	call := func(id int64, method, params string) error {
		t.Helper()
		if err := conn.Write(ctx, &jsonrpc.Request{ID: mustID(id), Method: method, Params: []byte(params)}); err != nil {
			t.Fatal(err)
		}
		msg, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return msg.(*jsonrpc.Response).Error
	}
	if code := codeOf(call(1, "tools/list", `{}`)); code != 0 {
		t.Errorf("the go-sdk answers a call before initialize with code %d: if that is -32600, BeforeInitialize and the first case of Session.coded may go", code)
	}
	if err := call(2, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if code := codeOf(call(3, "resources/read", `{"uri":"test://broken"}`)); code != 0 {
		t.Errorf("the go-sdk answers a handler's error without a code with code %d: Coded may go", code)
	}
}

func codeOf(err error) int64 {
	var wire *jsonrpc.Error
	if !errors.As(err, &wire) {
		return -1
	}
	return wire.Code
}

func mustID(n int64) jsonrpc.ID {
	id, _ := jsonrpc.MakeID(float64(n))
	return id
}
