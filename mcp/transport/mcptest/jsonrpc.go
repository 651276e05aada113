package mcptest

import (
	"encoding/json"
	"strings"
	"testing"
)

// OddIDs are request ids the SDK does not carry through unchanged (it
// decodes numbers to float64 and keeps them as int64, and re-encodes
// strings); each must come back exactly as sent.
var OddIDs = []string{`1e308`, `1.5`, `9007199254740993`, `-0`, `1E2`, `1.0`, `"a\u0041"`, `"\u00e9"`, `7`, `"plain"`}

// WantError checks that answer, one JSON-RPC message (or an SSE event
// carrying one), is an error with code and the id rawID byte for byte.
func WantError(t *testing.T, what, answer, rawID string, code int) {
	t.Helper()
	data := answer
	if i := strings.Index(answer, "data: "); i >= 0 {
		data = strings.TrimSpace(strings.SplitN(answer[i+len("data: "):], "\n", 2)[0])
	}
	var msg struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(data), &msg); err != nil {
		t.Errorf("%s: answer %q is not a JSON-RPC message: %v", what, answer, err)
		return
	}
	if msg.Error == nil || msg.Error.Code != code {
		t.Errorf("%s: answer %s, want error code %d", what, data, code)
	}
	if string(msg.ID) != rawID {
		t.Errorf("%s: id came back as %s, want %s", what, msg.ID, rawID)
	}
}
