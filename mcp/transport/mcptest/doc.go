// Package mcptest is an MCP client for tests, on the wire by hand (raw
// Streamable HTTP posts, an HTTP+SSE stream read event by event, JSON-RPC
// answers checked byte for byte) or through the go-sdk's client
// (Connect), with a clock to move by hand. It serves the tests of package
// transport and of package mcp alike, and so imports neither.
package mcptest
