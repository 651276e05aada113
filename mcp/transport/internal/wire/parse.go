package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Message is one JSON-RPC message as the client sent it, with the two
// fields this package looks at.
type Message struct {
	Raw    json.RawMessage // the whole message
	ID     json.RawMessage // the id as sent; empty when there is none
	Method string
}

// IsCall reports whether m is a request that wants an answer. A null id
// is a notification to the SDK too.
func (m Message) IsCall() bool {
	return m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null"
}

// SDKID is m's id as the SDK decodes it.
func (m Message) SDKID() (jsonrpc.ID, error) {
	var raw any
	if err := json.Unmarshal(m.ID, &raw); err != nil {
		return jsonrpc.ID{}, err
	}
	return jsonrpc.MakeID(raw)
}

// UnmarshalJSON keeps the message's bytes beside its id and method. Raw
// points into the body it was read from, which the caller keeps.
func (m *Message) UnmarshalJSON(data []byte) error {
	var f struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return err
	}
	*m = Message{Raw: data, ID: f.ID, Method: f.Method}
	return nil
}

// Body is one HTTP body or stdio line: a message, or a batch of them.
type Body struct {
	Msgs  []Message
	Batch bool
}

// Parse reads the messages of data, decoding it once. A message whose id
// or method has the wrong type fails the whole body: the SDK refuses it.
func Parse(data []byte) (Body, error) {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		var msgs []Message
		if err := json.Unmarshal(data, &msgs); err != nil {
			return Body{}, fmt.Errorf("decode batch: %w", err)
		}
		if len(msgs) == 0 {
			return Body{}, errors.New("empty batch")
		}
		return Body{Msgs: msgs, Batch: true}, nil
	}
	var m Message
	if err := m.UnmarshalJSON(data); err != nil {
		return Body{}, fmt.Errorf("decode message: %w", err)
	}
	return Body{Msgs: []Message{m}}, nil
}

// Calls counts the messages that want an answer.
func (b Body) Calls() int {
	n := 0
	for _, m := range b.Msgs {
		if m.IsCall() {
			n++
		}
	}
	return n
}

// Has reports whether a message of b is a call or notification of method.
func (b Body) Has(method string) bool {
	for _, m := range b.Msgs {
		if m.Method == method {
			return true
		}
	}
	return false
}

// Bytes is the wire form of b.
func (b Body) Bytes() []byte {
	if !b.Batch {
		return b.Msgs[0].Raw
	}
	return Join(b.rawMsgs())
}

func (b Body) rawMsgs() [][]byte {
	out := make([][]byte, len(b.Msgs))
	for i, m := range b.Msgs {
		out[i] = m.Raw
	}
	return out
}

// Join makes a batch of msgs.
func Join(msgs [][]byte) []byte {
	return append(append([]byte{'['}, bytes.Join(msgs, []byte{','})...), ']')
}
