package mcp

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/climated/climated/history"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// msgInternal is all a client learns of a failure of the hub's own (SQLite,
// the disk): the details are in the hub's log, not for whoever asks.
const msgInternal = "internal error reading the history; the hub's log has the details"

// hubError sorts an error of the Hub's history: a question it cannot answer
// (history.ArgError) and an ended context stay as they are, for the caller
// to present; any other is the hub's own failure, logged here once and
// answered as a JSON-RPC internal error (-32603) that names nothing of it.
func (s *Server) hubError(err error, what string) error {
	var arg *history.ArgError
	if err == nil || errors.As(err, &arg) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	s.log.Error("history failed", "request", what, "err", err)
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msgInternal}
}

// argData is the data of a -32602 error for a history.ArgError: which
// argument was wrong and, when they are a list, the values that would do.
type argData struct {
	Argument string   `json:"argument"`
	Valid    []string `json:"valid,omitempty"`
}

// asInvalidParams is the JSON-RPC error of a resource read that failed: a
// JSON-RPC error (an internal one from hubError) as it is, any other the
// reader's to correct (-32602), with argData for a history.ArgError, but
// for an ended context (the request's time ran out: -32603).
func asInvalidParams(err error) error {
	var wire *jsonrpc.Error
	if errors.As(err, &wire) {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	e := &jsonrpc.Error{Code: codeInvalidParams, Message: err.Error()}
	var arg *history.ArgError
	if errors.As(err, &arg) {
		e.Data, _ = json.Marshal(argData{Argument: arg.Arg, Valid: arg.Valid})
	}
	return e
}
