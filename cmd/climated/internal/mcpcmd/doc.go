// Package mcpcmd is climated mcp: the MCP surface on stdin and stdout,
// read from the database climated serve writes (read-only beside it, with
// the alerts it fires passed on as they come), or with --remote a bridge
// to a hub's Streamable HTTP endpoint (package bridge).
package mcpcmd
