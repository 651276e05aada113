package wire

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The go-sdk decodes a request id into a float64 and keeps numbers as
// int64, and re-encodes string ids: 1.5 comes back as 1, 1e308 as
// -9223372036854775808, 9007199254740993 as 9007199254740992, "a\u0041"
// as "aA". JSON-RPC wants the id back as sent. So an id the SDK would
// change is swapped for a placeholder (a string the SDK carries as it
// is) before the SDK sees it, and the answer gets the id back, byte for
// byte. Placeholders carry a random part, so a client cannot forge one.
//
// Delete this file when go-sdk#1253 (jsonrpc2: preserve exact request
// identities) or its like is released: TestSDKChangesIDs then fails.

// placeholderPrefix starts every placeholder id; a number follows.
var placeholderPrefix = "climated-id-" + rand.Text()[:12] + "-"

var placeholderSeq atomic.Uint64

// IDs holds the ids swapped for placeholders until their answers go out.
// The zero IDs is ready to use.
type IDs struct {
	mu  sync.Mutex
	ids map[string]json.RawMessage // placeholder → id as sent
}

// Swap returns m ready for the SDK: as it is when the SDK keeps its id,
// else with the id swapped for a placeholder.
func (k *IDs) Swap(m Message) (Message, error) {
	if !m.IsCall() || Kept(m.ID) {
		return m, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(m.Raw, &fields); err != nil {
		return m, fmt.Errorf("decode message: %w", err)
	}
	placeholder := fmt.Sprintf("%s%d", placeholderPrefix, placeholderSeq.Add(1))
	fields["id"], _ = json.Marshal(placeholder)
	raw, err := json.Marshal(fields)
	if err != nil {
		return m, fmt.Errorf("encode message: %w", err)
	}
	k.mu.Lock()
	if k.ids == nil {
		k.ids = map[string]json.RawMessage{}
	}
	k.ids[placeholder] = m.ID
	k.mu.Unlock()
	return Message{Raw: raw, ID: json.RawMessage(`"` + placeholder + `"`), Method: m.Method}, nil
}

// SwapBody is Swap for every message of b; it reports whether any changed.
func (k *IDs) SwapBody(b Body) (Body, bool, error) {
	changed := false
	for i, m := range b.Msgs {
		s, err := k.Swap(m)
		if err != nil {
			return b, false, err
		}
		changed = changed || len(s.Raw) != len(m.Raw) || !bytes.Equal(s.Raw, m.Raw)
		b.Msgs[i] = s
	}
	return b, changed, nil
}

// Restore puts the ids as sent back into data, an encoded answer (or a
// batch of them, or an SSE event carrying one), and forgets them.
func (k *IDs) Restore(data []byte) []byte {
	marker := []byte(`"id":"` + placeholderPrefix)
	from := 0
	for {
		i := bytes.Index(data[from:], marker)
		if i < 0 {
			return data
		}
		i += from
		start := i + len(`"id":"`)
		end := bytes.IndexByte(data[start:], '"')
		if end < 0 {
			return data
		}
		end += start
		raw, ok := k.take(string(data[start:end]))
		if !ok {
			from = end
			continue
		}
		out := make([]byte, 0, len(data)+len(raw))
		out = append(append(append(out, data[:i]...), `"id":`...), raw...)
		from = len(out)
		data = append(out, data[end+1:]...)
	}
}

func (k *IDs) take(placeholder string) (json.RawMessage, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	raw, ok := k.ids[placeholder]
	delete(k.ids, placeholder)
	return raw, ok
}

// Kept reports whether the SDK carries id through unchanged. Plain
// integers and plain strings, what clients send, are decided here; any
// other id by a round trip through the SDK's own decoding.
func Kept(id json.RawMessage) bool {
	if plainID(id) {
		return true
	}
	msg, err := jsonrpc.DecodeMessage(append(append([]byte(`{"jsonrpc":"2.0","method":"x","id":`), id...), '}'))
	if err != nil {
		return true // the SDK refuses the message; nothing to restore
	}
	out, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: msg.(*jsonrpc.Request).ID, Result: json.RawMessage("0")})
	return err == nil && bytes.Equal(out, append(append([]byte(`{"jsonrpc":"2.0","id":`), id...), []byte(`,"result":0}`)...))
}

// plainID: an integer of up to 15 digits without a leading zero (and not
// -0), or a string of letters, digits and -_.:/ only.
func plainID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	if id[0] == '"' {
		return len(id) >= 2 && id[len(id)-1] == '"' && allBytes(id[1:len(id)-1], plainStringByte)
	}
	digits := id
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 15 || (digits[0] == '0' && len(digits) > 1) {
		return false
	}
	return allBytes(digits, func(c byte) bool { return c >= '0' && c <= '9' }) && string(id) != "-0"
}

func allBytes(b []byte, ok func(byte) bool) bool {
	for _, c := range b {
		if !ok(c) {
			return false
		}
	}
	return true
}

// plainStringByte: a letter, a digit or one of -_.:/.
func plainStringByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || bytes.IndexByte([]byte("-_.:/"), c) >= 0
}
