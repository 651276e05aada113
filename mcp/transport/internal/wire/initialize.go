package wire

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The SDK answers a call before initialize ("method %q is invalid during
// session initialization"), and an error a handler returns without a
// JSON-RPC code, with code 0, which clients cannot place. A call before
// initialize is an invalid request (-32600); any other error without a
// code an internal error (-32603). Delete this file when
// TestSDKAnswersCallBeforeInitializeWithoutCode fails.

// BeforeInitialize is the answer to m, a call before the session's
// initialize.
func BeforeInitialize(m Message) []byte {
	return ErrorAnswer(m.ID, jsonrpc.CodeInvalidRequest,
		fmt.Sprintf("%s before initialize: start the session with initialize (and notifications/initialized)", m.Method))
}

// Coded gives err the code of an internal error when it has none.
func Coded(err error) error {
	var wire *jsonrpc.Error
	if err == nil || errors.As(err, &wire) && wire.Code != 0 {
		return err
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
}

// Session is what the transport of one session (HTTP+SSE, stdio) keeps
// between the client and the SDK: the ids it swapped, and whether
// initialize has been answered, which decides the code of an error the
// SDK sends without one.
type Session struct {
	IDs
	initCall atomic.Pointer[jsonrpc.ID] // the id, as the SDK has it, of the latest initialize
	ready    atomic.Bool                // initialize was answered without an error
}

// In is m ready for the SDK, its id swapped where needed; it notes an
// initialize.
func (s *Session) In(m Message) (Message, error) {
	m, err := s.Swap(m)
	if err != nil || m.Method != "initialize" || !m.IsCall() {
		return m, err
	}
	if id, err := m.SDKID(); err == nil {
		s.initCall.Store(&id)
	}
	return m, nil
}

// Out is the wire form of msg, a message of the SDK's: errors with codes,
// ids as sent.
func (s *Session) Out(msg jsonrpc.Message) ([]byte, error) {
	if r, ok := msg.(*jsonrpc.Response); ok {
		msg = s.coded(r)
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return nil, fmt.Errorf("encode message: %w", err)
	}
	return s.Restore(data), nil
}

func (s *Session) coded(r *jsonrpc.Response) *jsonrpc.Response {
	if init := s.initCall.Load(); init != nil && *init == r.ID && r.Error == nil {
		s.ready.Store(true)
	}
	var wire *jsonrpc.Error
	if r.Error == nil || errors.As(r.Error, &wire) && wire.Code != 0 {
		return r
	}
	c := *r
	c.Error = Coded(r.Error)
	if !s.ready.Load() {
		c.Error = &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: r.Error.Error()}
	}
	return &c
}
