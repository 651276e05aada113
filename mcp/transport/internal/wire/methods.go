package wire

import (
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The SDK's Streamable HTTP handler answers a call of a method it does
// not serve, on protocols before 2026-07-28, with HTTP 400 and plain
// text, which a client cannot tie to its call (go-sdk#976). Over a
// session (HTTP+SSE, stdio) and on 2026-07-28 the SDK answers -32601
// itself. Delete this file when TestSDKAnswersUnknownMethodsInPlainText
// fails: the SDK's handler then answers JSON-RPC.

// known are the methods a client may send: those go-sdk v1.8.0 serves
// (its serverMethodInfos). TestKnownMethods pins the list against the SDK.
var known = map[string]bool{
	"completion/complete": true, "server/discover": true, "initialize": true, "ping": true,
	"prompts/list": true, "prompts/get": true, "tools/list": true, "tools/call": true,
	"resources/list": true, "resources/templates/list": true, "resources/read": true,
	"logging/setLevel": true, "resources/subscribe": true, "subscriptions/listen": true,
	"resources/unsubscribe": true, "notifications/cancelled": true, "notifications/initialized": true,
	"notifications/roots/list_changed": true, "notifications/progress": true,
}

// Known reports whether the SDK serves method.
func Known(method string) bool { return known[method] }

// UnknownMethod is the answer to m, a call of a method the SDK does not
// serve.
func UnknownMethod(m Message) []byte {
	return ErrorAnswer(m.ID, jsonrpc.CodeMethodNotFound, fmt.Sprintf("method %q not found: the hub serves MCP methods only", m.Method))
}

// ErrorAnswer encodes a JSON-RPC error answer with the id as sent (null
// when there is none).
func ErrorAnswer(id json.RawMessage, code int64, msg string) []byte {
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
