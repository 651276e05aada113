// Package mcp serves the house climate over the Model Context Protocol on
// the official go-sdk. Its HTTP handler (Handler)
// carries the transports; the hub's HTTP front (cmd/climated/internal/front)
// mounts it behind the Host, Origin and token checks, beside /api/climate,
// /healthz and /metrics:
//
//   - /mcp: Streamable HTTP. Protocol 2026-07-28 and server/discover are
//     served statelessly, as that revision requires, notifications coming
//     on subscriptions/listen streams; revisions 2025-03-26 to 2025-11-25
//     keep their sessions (stateless.go), which end after an idle
//     timeout (SessionTimeout), sooner (StreamlessTimeout) when they hold
//     no stream and no request (idle.go);
//   - /sse and /message: the older HTTP+SSE transport (MCP 2024-11-05) — GET /sse
//     opens an event stream whose first "endpoint" event names
//     /message?session_id=…; POST /message?session_id=… answers 202
//     Accepted and the JSON-RPC response arrives on the event stream.
//
// Sessions and streams are bounded per client (remote address, and token)
// and for all together, and nobody is refused: a client past its share
// loses its own oldest, so a client that leaks streams or sessions never
// locks others out (share.go, perclient).
//
// Stdio serves the same MCP server on a pipe (climated mcp).
//
// The SDK does the JSON-RPC. Before it, this package bounds the work a
// client can make the hub hold: every call counts against its session's
// MaxInFlight (each call of a batch, and an SSE call from its 202 until
// its answer is on the stream). What the SDK does not do yet at the wire
// is in internal/wire, each piece naming the SDK behaviour it waits on:
// request ids come back as sent, an unknown method is -32601 and a call
// before initialize -32600 on every transport. The pieces that stay here
// name their reason too (stateless.go, idle.go, sse.go); a TestSDK… test
// fails once the SDK does a piece's job, so that it can go then.
//
// An unknown log level, and completion for a prompt,
// template or argument the hub lacks, are -32602 errors (loglevel.go,
// completion.go). A question the history cannot answer (history.ArgError)
// is -32602 with the valid values in its data; a failure of the history
// itself is -32603, logged, its details kept from the client (huberr.go).
// The go-sdk logs through a handler that puts its
// routine INFO at DEBUG and rate-limits its warnings (sdklog.go).
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
