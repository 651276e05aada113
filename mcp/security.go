package mcp

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
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
		return res, withCode(err)
	}
}

// withCode gives an error without a JSON-RPC code the code of an internal
// error: the SDK would send it with code 0, which clients cannot place.
func withCode(err error) error {
	var wire *jsonrpc.Error
	if err == nil || errors.As(err, &wire) && wire.Code != 0 {
		return err
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
}
