// Package mcp serves the house climate over the Model Context Protocol on
// the official go-sdk: it builds the SDK server with climated's tools,
// resources and prompts (New, buildSDKServer in server.go), and serves it
// through package transport, which knows nothing of them. Its HTTP handler
// (Handler) is transport.HTTP's; the hub's HTTP front
// (cmd/climated/internal/front) mounts it behind the Host, Origin and token
// checks, beside /api/climate, /healthz and /metrics: /mcp (Streamable
// HTTP), GET /sse and POST /message (HTTP+SSE). Options carries the
// transports' limits and timeouts on to them (transportOptions), and
// WatchGrants and RecheckGrants to their grant watch.
//
// MCP() is the SDK server, for transport.Stdio (climated mcp) and tests.
//
// An unknown log level, and completion for a prompt,
// template or argument the hub lacks, are -32602 errors (loglevel.go,
// completion.go). A question the history cannot answer (history.ArgError)
// is -32602 with the valid values in its data; a failure of the history
// itself is -32603, logged, its details kept from the client (huberr.go).
// The go-sdk logs through a handler that puts its
// routine INFO at DEBUG and rate-limits its warnings (transport.SDKLogger).
//
// What a model reads is held to a budget and a schema subset: output
// schemas for structured results, enums and bounds, no type arrays
// (schemas.go); the hub's time zone named and times given in local ISO
// 8601 beside the Unix seconds (localtime.go, climate_times.go);
// TestContextBudget measures the token cost with a year of demo history,
// and cmd/climated's TestToolsListBudgetServed that of tools/list on the
// served hub, where the alert tools are listed too.
//
// With Options.Alerts (alerts_tools.go, alerts_resources.go) it adds the
// tool list_alerts, create_alert (confirmed through elicitation where the
// client can) and delete_alert when the alerts are an AlertEditor (the
// hub's engine: NewAlerts; NewStoredAlerts reads the database only), the
// subscribable resources
// climate://alerts/active and climate://alerts/history, and the reports'
// mention of the period's alerts; the hub passes each event to
// Server.AlertEvent, which notifies subscribers and logs a warning.
//
// The package never reshapes climate data: it serves the JSON its Hub
// made once per change (Hub.Snapshot).
package mcp
