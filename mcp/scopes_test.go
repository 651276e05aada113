package mcp

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mcp/transport/mcptest"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestScopeCheckedInServer: the server checks a tool's scope itself, on
// the params the SDK decoded, whatever stood before it. Here nothing
// checks scopes in front (go-sdk's RequireBearerToken alone, as the
// front would be with a fault in its gate): a token with climate:read
// alone cannot create or delete a rule on either HTTP transport, and one
// with alerts:write can.
func TestScopeCheckedInServer(t *testing.T) {
	h := newAlertHub(t)
	scopes := map[string][]string{"read": {ScopeRead}, "write": {ScopeRead, ScopeAlertsWrite}}
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if s, ok := scopes[token]; ok {
			return &auth.TokenInfo{Scopes: s, UserID: "client-" + token, Expiration: time.Now().Add(time.Hour)}, nil
		}
		return nil, auth.ErrInvalidToken
	}
	ts := httptest.NewServer(auth.RequireBearerToken(verify, nil)(h.srv.Handler()))
	t.Cleanup(ts.Close)
	transports := map[string]func(token string) sdk.Transport{
		"streamable": func(token string) sdk.Transport {
			return &sdk.StreamableClientTransport{Endpoint: ts.URL + "/mcp", HTTPClient: &http.Client{Transport: testutil.Bearer{Token: token, Next: http.DefaultTransport}}}
		},
		"sse": func(token string) sdk.Transport {
			return &sdk.SSEClientTransport{Endpoint: ts.URL + "/sse", HTTPClient: &http.Client{Transport: testutil.Bearer{Token: token, Next: http.DefaultTransport}}}
		},
	}
	for name, transport := range transports {
		t.Run(name, func(t *testing.T) {
			version := map[string]string{"streamable": "2025-03-26", "sse": "2024-11-05"}[name]
			read := mcptest.ConnectAt(t, transport("read"), nil, version)
			for _, c := range []struct {
				tool string
				args map[string]any
			}{{ToolCreateAlert, co2Rule}, {ToolDeleteAlert, map[string]any{"id": "house.co2"}}} {
				_, err := read.CallTool(context.Background(), &sdk.CallToolParams{Name: c.tool, Arguments: c.args})
				var wire interface{ Error() string }
				if err == nil || !errors.As(err, &wire) || !strings.Contains(err.Error(), "insufficient_scope") {
					t.Errorf("%s with climate:read alone: %v, want an insufficient_scope error", c.tool, err)
				}
			}
			if rules, err := h.db.Rules(context.Background()); err != nil || len(rules) != 0 {
				t.Fatalf("rules after the refused calls: %v %v", rules, err)
			}
			if res, text := callTool(t, read, ToolListAlerts, nil); res.IsError {
				t.Errorf("list_alerts with climate:read: %s", text)
			}
			write := mcptest.ConnectAt(t, transport("write"), nil, version)
			if res, text := callTool(t, write, ToolCreateAlert, co2Rule); res.IsError {
				t.Fatalf("create_alert with alerts:write: %s", text)
			}
			rules, err := h.db.Rules(context.Background())
			if err != nil || len(rules) != 1 {
				t.Fatalf("rules after create_alert with alerts:write: %v %v", rules, err)
			}
			if res, text := callTool(t, write, ToolDeleteAlert, map[string]any{"id": rules[0].ID}); res.IsError {
				t.Fatalf("delete_alert with alerts:write: %s", text)
			}
		})
	}
}
