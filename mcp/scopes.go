package mcp

// Scopes of the hub's OAuth tokens (docs/oauth.md): every MCP request
// needs ScopeRead; the tools that change the hub need the scope ToolScope
// names besides. A request with the static bearer token has them all.
const (
	ScopeRead        = "climate:read"
	ScopeAlertsWrite = "alerts:write"
)

// ToolScope is the scope a call of the tool needs beyond ScopeRead, ""
// when none.
func ToolScope(tool string) string {
	switch tool {
	case ToolCreateAlert, ToolDeleteAlert:
		return ScopeAlertsWrite
	}
	return ""
}
