package transport

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/mcp/transport/internal/wire"
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

// Guard is the SDK server's first receiving middleware, on every
// transport (stdio too): it bounds the time of every MCP method handler
// to timeout (DefaultRequestTimeout when zero), and logs a panic to log.
func Guard(timeout time.Duration, log *slog.Logger) sdk.Middleware {
	orDefault(&timeout, DefaultRequestTimeout)
	return (&guard{timeout: timeout, log: log}).guardMCP
}

type guard struct {
	timeout time.Duration
	log     *slog.Logger
}

// guardMCP bounds the time of every MCP method handler (a tool, a
// resource, a prompt) and turns a panic in one into a JSON-RPC error: the
// SDK runs handlers on goroutines of its own, where a panic would end the
// whole process; errors get a JSON-RPC code. subscriptions/listen is the one request meant to last.
func (s *guard) guardMCP(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (res sdk.Result, err error) {
		if method != methodListen {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, s.timeout)
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
