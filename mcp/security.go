package mcp

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/mcp/internal/wire"
)

// Defaults of the request limits.
const (
	// DefaultMaxInFlight is how many calls a session may have in flight:
	// each call of a batch counts, and over the SSE transport a call
	// counts from its 202 until its answer is written to the stream.
	// Past it a POST is answered 429 (see callLimit).
	DefaultMaxInFlight    = 8
	DefaultRequestTimeout = 30 * time.Second
	sessionHeader         = "Mcp-Session-Id"
	sseSessionParam       = "session_id"
)

// guardMCP bounds the time of every MCP method handler (a tool, a
// resource, a prompt) and turns a panic in one into a JSON-RPC error: the
// SDK runs handlers on goroutines of its own, where a panic would end the
// whole process; errors get a JSON-RPC code. subscriptions/listen is the one request meant to last.
func (s *Server) guardMCP(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (res sdk.Result, err error) {
		if method != "subscriptions/listen" {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, s.opts.RequestTimeout)
			defer cancel()
		}
		defer func() {
			if v := recover(); v != nil {
				s.log.Error("panic in MCP handler", "method", method, "panic", v, "stack", string(debug.Stack()))
				res, err = nil, fmt.Errorf("internal error in %s", method)
			}
		}()
		res, err = next(ctx, method, req)
		return res, wire.Coded(err)
	}
}
