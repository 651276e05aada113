package mcp

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
// -9223372036854775808, 9007199254740993 as 9007199254740992, "a\u0041" as
// "aA". JSON-RPC wants the id back as sent, so before the SDK sees a
// request whose id it would change, the id is swapped for a stand-in (a
// string the SDK carries unchanged) and the answer gets the id back, byte
// for byte. The stand-ins carry a random part, so a client cannot forge one.

// standInPrefix starts every stand-in id; the random part follows.
var standInPrefix = "climated-id-" + rand.Text()[:12] + "-"

var standInSeq atomic.Uint64

// envelope is what this layer reads of a client's message before the SDK
// decodes it.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// isCall: a request that wants an answer (a null id is a notification to
// the SDK too).
func (e envelope) isCall() bool {
	return e.Method != "" && len(e.ID) > 0 && string(e.ID) != "null"
}

// faithful reports whether the SDK carries id through unchanged. Plain
// integers and plain strings, what clients send, are decided without the
// SDK; anything else is decided by a round trip through it.
func faithful(id json.RawMessage) bool {
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

// plainID: an integer of up to 15 digits without a leading zero, or a
// string of letters, digits and -_.:/ only.
func plainID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	if id[0] == '"' {
		return plainString(id)
	}
	return plainInteger(id)
}

// plainString: a quoted string of letters, digits and -_.:/ only.
func plainString(id json.RawMessage) bool {
	if len(id) < 2 || id[len(id)-1] != '"' {
		return false
	}
	for _, c := range id[1 : len(id)-1] {
		if !plainIDByte(c) {
			return false
		}
	}
	return true
}

// plainIDByte: a letter, a digit or one of -_.:/.
func plainIDByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || bytes.IndexByte([]byte("-_.:/"), c) >= 0
}

// plainInteger: an integer of up to 15 digits without a leading zero,
// and not -0.
func plainInteger(id json.RawMessage) bool {
	digits := id
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 15 || (digits[0] == '0' && len(digits) > 1) {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return !bytes.Equal(id, []byte("-0"))
}

// idKeeper holds the ids swapped for stand-ins until their answers go out.
type idKeeper struct {
	mu  sync.Mutex
	ids map[string]json.RawMessage // stand-in → id as sent
}

func newIDKeeper() *idKeeper { return &idKeeper{ids: map[string]json.RawMessage{}} }

// keep returns msg ready for the SDK: unchanged when the SDK carries its id
// faithfully, else with the id swapped for a stand-in.
func (k *idKeeper) keep(msg json.RawMessage, env envelope) (json.RawMessage, error) {
	if !env.isCall() || faithful(env.ID) {
		return msg, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(msg, &fields); err != nil {
		return nil, fmt.Errorf("decode message: %w", err)
	}
	standIn := fmt.Sprintf("%s%d", standInPrefix, standInSeq.Add(1))
	fields["id"], _ = json.Marshal(standIn)
	out, err := json.Marshal(fields)
	if err != nil {
		return nil, fmt.Errorf("encode message: %w", err)
	}
	k.mu.Lock()
	k.ids[standIn] = env.ID
	k.mu.Unlock()
	return out, nil
}

// restore puts the ids as sent back into data, an encoded answer (or a
// batch of them, or an SSE event carrying one), and forgets them.
func (k *idKeeper) restore(data []byte) []byte {
	marker := []byte(`"id":"` + standInPrefix)
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
		k.mu.Lock()
		raw, ok := k.ids[string(data[start:end])]
		delete(k.ids, string(data[start:end]))
		k.mu.Unlock()
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

// errorAnswer encodes a JSON-RPC error answer with the id as sent (null
// when there is none).
func errorAnswer(id json.RawMessage, code int64, msg string) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	body, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: code, Message: msg}})
	return body
}
