// Package bridge is climated mcp --remote: a desktop client that only
// launches local commands talks MCP on stdin and stdout, and every message
// is copied, as it is, to and from a hub's Streamable HTTP endpoint, with
// the hub's bearer token, its event stream for notifications, and a new
// session when the hub restarts.
package bridge
