package front

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/segmentio/encoding/json"
)

// maxPeek is how much of a request body the scope gate reads: the MCP
// handlers refuse larger bodies themselves (transport.DefaultMaxBodyBytes).
const maxPeek = 1 << 20

// scopeGate answers 403 insufficient_scope (RFC 6750 §3.1, as the MCP
// specification asks) to a tools/call of a tool whose scope the OAuth
// token lacks. It reads the body on every transport the same way (/mcp,
// /message), before the MCP handlers, and hands it on unchanged.
//
// It fails closed: a body it cannot read whole, or any message of which
// it cannot decode as the SDK will, is refused (413, 400) rather than
// passed on, since what the gate cannot read may be what the SDK runs.
// The MCP server checks the scope of every call again (mcp.ToolScope), so
// that a fault here alone never lets a token change the hub.
func (g *guard) scopeGate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ti := auth.TokenInfoFromContext(r.Context())
		if ti == nil || g.toolScope == nil || r.Method == http.MethodGet || r.Method == http.MethodDelete {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxPeek+1))
		if err != nil {
			http.Error(w, "reading the request: "+err.Error(), http.StatusBadRequest)
			return
		}
		if len(body) > maxPeek {
			http.Error(w, fmt.Sprintf("request body over %d bytes", maxPeek), http.StatusRequestEntityTooLarge)
			return
		}
		tools, err := calledTools(body)
		if err != nil {
			http.Error(w, "the body is no JSON-RPC message the hub can read: "+err.Error(), http.StatusBadRequest)
			return
		}
		for _, tool := range tools {
			if need := g.toolScope(tool); need != "" && !slices.Contains(ti.Scopes, need) {
				w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope=%q, resource_metadata=%q, error_description="%s needs %s"`,
					scopeRead+" "+need, g.oauth.ResourceMetadataURLFor(metadataPath(r.URL.Path)), tool, need))
				http.Error(w, fmt.Sprintf("insufficient_scope: %s needs the scope %s; sign in again and allow it", tool, need), http.StatusForbidden)
				return
			}
		}
		r.Body = struct {
			io.Reader
			io.Closer
		}{bytes.NewReader(body), r.Body}
		next.ServeHTTP(w, r)
	})
}

// errEmpty is a body with nothing in it, or an empty batch.
var errEmpty = errors.New("no message")

// calledTools are the tools a JSON-RPC message or batch calls. It reads
// the body as go-sdk's transports do (readBatch: an array of raw messages,
// else one message) with the decoder go-sdk reads with (segmentio's, field
// names matched case-sensitively), and then every message on its own, as
// the SDK's DecodeMessage and a tools/call's params decoding do. Where the
// SDK would run a message the gate must have read it; so any message the
// gate cannot read fails the whole body, and the caller refuses it.
func calledTools(body []byte) ([]string, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, errEmpty
	}
	var batch []json.RawMessage
	if decodeAsSDK(body, &batch) != nil {
		tool, err := calledTool(body)
		if err != nil || tool == "" {
			return nil, err
		}
		return []string{tool}, nil
	}
	if len(batch) == 0 {
		return nil, fmt.Errorf("batch: %w", errEmpty)
	}
	var tools []string
	for i, msg := range batch {
		tool, err := calledTool(msg)
		if err != nil {
			return nil, fmt.Errorf("batch element %d: %w", i+1, err)
		}
		if tool != "" {
			tools = append(tools, tool)
		}
	}
	return tools, nil
}

// rpcMessage is what the gate reads of one message: its version, and its
// method and params kept raw, as the SDK's wire form keeps them.
type rpcMessage struct {
	Version string          `json:"jsonrpc"`
	Method  json.RawMessage `json:"method"`
	Params  json.RawMessage `json:"params"`
}

// calledTool is the tool one message calls, "" when it calls none (another
// method, a notification, a response). Every message must be a JSON-RPC
// 2.0 object whose params, when it has them, are an object, as every MCP
// method's are; a tools/call's must name the tool. Anything else is an
// error, though the SDK would refuse some of it itself: a batch's other
// messages would still run.
func calledTool(raw []byte) (string, error) {
	var msg rpcMessage
	if err := decodeAsSDK(raw, &msg); err != nil {
		return "", fmt.Errorf("not a JSON-RPC message: %w", err)
	}
	if msg.Version != "2.0" {
		return "", fmt.Errorf(`jsonrpc is %q, not "2.0"`, msg.Version)
	}
	hasParams := len(msg.Params) > 0 && string(msg.Params) != "null"
	if hasParams {
		var fields map[string]json.RawMessage
		if err := decodeAsSDK(msg.Params, &fields); err != nil {
			return "", fmt.Errorf("params are not an object: %w", err)
		}
	}
	if len(msg.Method) == 0 {
		return "", nil // a response: it runs nothing
	}
	var method string
	if err := decodeAsSDK(msg.Method, &method); err != nil {
		return "", fmt.Errorf("method: %w", err)
	}
	if method != "tools/call" {
		return "", nil
	}
	var params struct {
		Name *string `json:"name"`
	}
	if hasParams {
		if err := decodeAsSDK(msg.Params, &params); err != nil {
			return "", fmt.Errorf("tools/call params: %w", err)
		}
	}
	if params.Name == nil {
		return "", errors.New("tools/call params: no tool name")
	}
	return *params.Name, nil
}

func decodeAsSDK(body []byte, v any) error {
	if len(body) == 0 {
		return errEmpty
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DontMatchCaseInsensitiveStructFields()
	return dec.Decode(v)
}
