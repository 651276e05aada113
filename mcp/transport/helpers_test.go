package transport

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolEcho is the one tool of newBare's server: it says back what it is
// told to say ("ok" when told nothing), as text and as structured content.
const toolEcho = "echo"

type echoed struct {
	Say string `json:"say,omitempty"`
}

// newBare is a go-sdk server as package mcp builds its own, Guard first,
// but with one tool (echo) and one subscribable
// resource (a listen needs resources to listen to), and nothing else: what
// the transports carry is none of their business.
func newBare() *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: "bare", Version: "1"}, &sdk.ServerOptions{
		Logger:             slog.New(slog.DiscardHandler),
		SubscribeHandler:   func(context.Context, *sdk.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *sdk.UnsubscribeRequest) error { return nil },
	})
	srv.AddReceivingMiddleware(Guard(0, slog.New(slog.DiscardHandler)))
	sdk.AddTool(srv, &sdk.Tool{Name: toolEcho}, func(_ context.Context, _ *sdk.CallToolRequest, in echoed) (*sdk.CallToolResult, echoed, error) {
		if in.Say == "" {
			in.Say = "ok"
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: in.Say}}}, in, nil
	})
	srv.AddResource(&sdk.Resource{URI: "test://bare", Name: "bare"}, func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: "test://bare", Text: "{}"}}}, nil
	})
	return srv
}

// serve serves a newBare server over HTTP with opts; all is closed when
// the test ends.
func serve(t *testing.T, opts Options) (*HTTP, *httptest.Server) {
	t.Helper()
	h := NewHTTP(t.Context(), newBare(), &opts)
	ts := httptest.NewServer(h.Handler())
	t.Cleanup(func() { h.Close(); ts.Close() })
	return h, ts
}

// sessions counts the SDK sessions open, of every transport.
func (t *HTTP) sessions() int {
	n := 0
	for range t.server.Sessions() {
		n++
	}
	return n
}

// ownerOrClientB serves srv as the front does: the static token "owner"
// reaches it as is, the bearer token "b" as OAuth client-b (go-sdk's
// RequireBearerToken), any other is refused.
func ownerOrClientB(t *testing.T, srv *HTTP) *httptest.Server {
	t.Helper()
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if token == "b" {
			return &auth.TokenInfo{UserID: "client-b", Expiration: time.Now().Add(time.Hour)}, nil
		}
		return nil, auth.ErrInvalidToken
	}
	h := srv.Handler()
	withOAuth := auth.RequireBearerToken(verify, nil)(h)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "Bearer owner" { // the front's static token
			h.ServeHTTP(w, r)
			return
		}
		withOAuth.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts
}
