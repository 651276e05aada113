package mcp

import (
	"context"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/mcp/transport/mcptest"
)

// TestInvalidParamsAreRefused: a log level that does not exist, and
// completion for a prompt, template or argument the hub does not have,
// are JSON-RPC -32602 errors, over real HTTP with the go-sdk client.
func TestInvalidParamsAreRefused(t *testing.T) {
	h := newTestHub(t)
	// logging/setLevel is gone from 2026-07-28 (the level travels with
	// each request), so the client asks for the version before it.
	cs := mcptest.ConnectAt(t, &sdk.StreamableClientTransport{Endpoint: h.http.URL + "/mcp"}, nil, "2025-11-25")
	ctx := context.Background()
	if err := cs.SetLoggingLevel(ctx, &sdk.SetLoggingLevelParams{Level: "warning"}); err != nil {
		t.Fatalf("a level that exists: %v", err)
	}
	wantInvalid(t, "level \"loud\"", cs.SetLoggingLevel(ctx, &sdk.SetLoggingLevelParams{Level: "loud"}))
	for _, c := range []struct {
		name string
		ref  *sdk.CompleteReference
		arg  string
	}{
		{"unknown prompt", &sdk.CompleteReference{Type: "ref/prompt", Name: "no_such_prompt"}, "zone"},
		{"unknown template", &sdk.CompleteReference{Type: "ref/resource", URI: "climate://nowhere/{zone}"}, "zone"},
		{"argument the prompt lacks", &sdk.CompleteReference{Type: "ref/prompt", Name: "climate_report"}, "measurement"},
		{"variable the template lacks", &sdk.CompleteReference{Type: "ref/resource", URI: URIZoneTemplate}, "step"},
	} {
		_, err := cs.Complete(ctx, &sdk.CompleteParams{Ref: c.ref, Argument: sdk.CompleteParamsArgument{Name: c.arg, Value: ""}})
		wantInvalid(t, c.name, err)
	}
	// The session carries on.
	if _, err := cs.Complete(ctx, &sdk.CompleteParams{Ref: &sdk.CompleteReference{Type: "ref/prompt", Name: "climate_report"},
		Argument: sdk.CompleteParamsArgument{Name: "zone", Value: "In"}}); err != nil {
		t.Fatalf("completion after the refusals: %v", err)
	}
}

func wantInvalid(t *testing.T, what string, err error) {
	t.Helper()
	var wire *jsonrpc.Error
	if !errors.As(err, &wire) || wire.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("%s: %v, want JSON-RPC %d", what, err, jsonrpc.CodeInvalidParams)
	}
}
