package transport

import (
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ProtocolVersions are the MCP protocol revisions the hub serves over
// Streamable HTTP (/mcp), newest first: every one the go-sdk speaks, for
// announcing them (DNS-SD, the Server Card) without a connection.
func ProtocolVersions() []string { return sdk.SupportedProtocolVersions() }

// SSEProtocolVersions are those of the HTTP+SSE transport (/sse): the
// revisions before the first one it does not carry (sseconn.go).
func SSEProtocolVersions() []string {
	var out []string
	for _, v := range sdk.SupportedProtocolVersions() {
		if v < sseMaxProtocol {
			out = append(out, v)
		}
	}
	return out
}
