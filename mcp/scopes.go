package mcp

import (
	"context"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Scopes of the hub's OAuth tokens (docs/oauth.md): every MCP request
// needs ScopeRead; the tools that change the hub need the scope ToolScope
// names besides. A request with the static bearer token has them all.
const (
	ScopeRead        = "climate:read"
	ScopeAlertsWrite = "alerts:write"
)

// ToolScope is the scope a call of the tool needs beyond ScopeRead, ""
// when none.
func ToolScope(tool string) string {
	switch tool {
	case ToolCreateAlert, ToolDeleteAlert:
		return ScopeAlertsWrite
	}
	return ""
}

// checkScope refuses a tools/call whose OAuth token lacks the tool's
// scope. The hub's HTTP front refuses such a call before it gets here
// (403 insufficient_scope); this is the second check, on the params the
// SDK itself decoded, so that no fault of the front's reading alone lets a
// token change the hub. A request without token information came over
// stdio or with the hub's static token: the owner's, which has every
// scope.
func (s *Server) checkScope(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		p, ok := req.GetParams().(*sdk.CallToolParamsRaw)
		if !ok || p == nil {
			return next(ctx, method, req)
		}
		extra := req.GetExtra()
		if extra == nil || extra.TokenInfo == nil {
			return next(ctx, method, req)
		}
		if need := ToolScope(p.Name); need != "" && !slices.Contains(extra.TokenInfo.Scopes, need) {
			s.log.Warn("refused a tool call without its scope", "tool", p.Name, "client_id", extra.TokenInfo.UserID, "needs", need)
			return nil, &jsonrpc.Error{Code: codeInsufficientScope, Message: fmt.Sprintf("insufficient_scope: %s needs the scope %s; sign in again and allow it", p.Name, need)}
		}
		return next(ctx, method, req)
	}
}

// codeInsufficientScope is the JSON-RPC error of a call refused for its
// scope: an implementation-defined server error (JSON-RPC 2.0 §5.1).
const codeInsufficientScope = -32003
