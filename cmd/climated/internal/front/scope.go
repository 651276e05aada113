package front

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/segmentio/encoding/json"
)

// maxPeek is how much of a request body the scope gate reads: the MCP
// handlers refuse larger bodies themselves (mcp.DefaultMaxBodyBytes).
const maxPeek = 1 << 20

// rpcCall is what the gate reads of a JSON-RPC message.
type rpcCall struct {
	Method string `json:"method"`
	Params struct {
		Name string `json:"name"`
	} `json:"params"`
}

// scopeGate answers 403 insufficient_scope (RFC 6750 §3.1, as the MCP
// specification asks) to a tools/call of a tool whose scope the OAuth
// token lacks. It reads the body on every transport the same way (/mcp,
// /message), before the MCP handlers, and hands it on unchanged.
func (g *guard) scopeGate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ti := auth.TokenInfoFromContext(r.Context())
		if r.Method != http.MethodPost || ti == nil || g.toolScope == nil {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxPeek+1))
		if err != nil {
			http.Error(w, "reading the request: "+err.Error(), http.StatusBadRequest)
			return
		}
		// A body the gate cannot read whole is refused, not passed on
		// unread: past the peek a call could name any tool.
		if len(body) > maxPeek {
			http.Error(w, fmt.Sprintf("request body over %d bytes", maxPeek), http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
		for _, tool := range calledTools(body) {
			if need := g.toolScope(tool); need != "" && !slices.Contains(ti.Scopes, need) {
				w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope=%q, resource_metadata=%q, error_description="%s needs %s"`,
					scopeRead+" "+need, g.oauth.ResourceMetadataURL(), tool, need))
				http.Error(w, fmt.Sprintf("insufficient_scope: %s needs the scope %s; sign in again and allow it", tool, need), http.StatusForbidden)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// calledTools are the tools a JSON-RPC message or batch calls; nothing
// when it is neither (the MCP handler answers that). It decodes as go-sdk
// does (segmentio's decoder, field names matched case-sensitively), so
// that a message cannot name one tool to the gate and another to the
// server.
func calledTools(body []byte) []string {
	var calls []rpcCall
	if err := decodeAsSDK(body, &calls); err != nil {
		var one rpcCall
		if decodeAsSDK(body, &one) != nil {
			return nil
		}
		calls = []rpcCall{one}
	}
	var tools []string
	for _, c := range calls {
		if c.Method == "tools/call" {
			tools = append(tools, c.Params.Name)
		}
	}
	return tools
}

func decodeAsSDK(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DontMatchCaseInsensitiveStructFields()
	return dec.Decode(v)
}
