package mcp

import (
	"context"
	"slices"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// logLevels are the levels of logging/setLevel (RFC 5424, as the spec
// names them).
var logLevels = []sdk.LoggingLevel{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// checkLogLevel refuses logging/setLevel with a level that does not exist
// as invalid params (-32602). The go-sdk v1.8.0 stores any string, and a
// session with an unknown level then gets no log messages at all, without
// the client being told why.
func (s *Server) checkLogLevel(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if p, ok := req.GetParams().(*sdk.SetLoggingLevelParams); ok && p != nil && !slices.Contains(logLevels, p.Level) {
			return nil, invalidParams("logging level %q does not exist: use one of %v", p.Level, logLevels)
		}
		return next(ctx, method, req)
	}
}
