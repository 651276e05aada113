package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// wireState is what one session's transport keeps between the client's
// bytes and the go-sdk: the ids it swapped for stand-ins, and whether the
// session got through initialize, which decides the code of an error the
// SDK sends without one.
type wireState struct {
	ids      *idKeeper
	started  atomic.Bool // initialize was received
	ready    atomic.Bool // initialize was answered without an error
	initCall atomic.Pointer[jsonrpc.ID]
}

func newWireState() *wireState { return &wireState{ids: newIDKeeper()} }

// keep returns one message from the client ready for the SDK, its id
// swapped for a stand-in when the SDK would change it, and notes an
// initialize.
func (w *wireState) keep(data []byte, env envelope) ([]byte, error) {
	kept, err := w.ids.keep(data, env)
	if err != nil {
		return nil, err
	}
	if env.Method == methodInitialize && env.isCall() {
		if msg, err := jsonrpc.DecodeMessage(kept); err == nil && msg.(*jsonrpc.Request).IsCall() {
			id := msg.(*jsonrpc.Request).ID
			w.started.Store(true)
			w.initCall.Store(&id)
		}
	}
	return kept, nil
}

// decode is keep, decoded for the SDK.
func (w *wireState) decode(data []byte, env envelope) (jsonrpc.Message, error) {
	kept, err := w.keep(data, env)
	if err != nil {
		return nil, err
	}
	msg, err := jsonrpc.DecodeMessage(kept)
	if err != nil {
		return nil, fmt.Errorf("not a JSON-RPC 2.0 message: %w", err)
	}
	return msg, nil
}

// coded returns r with a JSON-RPC code on its error, and notes a
// successful initialize. The SDK refuses a call before initialize with an
// error without a code (0 on the wire): that is an invalid request; any
// other error without a code is an internal error.
func (w *wireState) coded(r *jsonrpc.Response) *jsonrpc.Response {
	if init := w.initCall.Load(); init != nil && *init == r.ID && r.Error == nil {
		w.ready.Store(true)
	}
	var wire *jsonrpc.Error
	if r.Error == nil || errors.As(r.Error, &wire) && wire.Code != 0 {
		return r
	}
	c := *r
	c.Error = withCode(r.Error)
	if !w.ready.Load() {
		c.Error = &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: r.Error.Error()}
	}
	return &c
}

// encode is the wire form of a message to the client, ids as sent.
func (w *wireState) encode(msg jsonrpc.Message) ([]byte, error) {
	if r, ok := msg.(*jsonrpc.Response); ok {
		msg = w.coded(r)
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return nil, fmt.Errorf("encode message: %w", err)
	}
	return w.ids.restore(data), nil
}

// envelopeOf reads the id and method of one message; the zero envelope
// when it cannot.
func envelopeOf(data []byte) envelope {
	var env envelope
	if json.Unmarshal(data, &env) != nil {
		return envelope{}
	}
	return env
}
