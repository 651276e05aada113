// Package mcp serves the house climate over the Model Context Protocol, with
// the official go-sdk doing all JSON-RPC work. One HTTP handler carries:
//
//   - /mcp: Streamable HTTP (protocol revisions 2025-03-26 and later), with
//     sessions that end after an idle timeout;
//   - /sse and /message: the older HTTP+SSE flow of seed 000 — GET /sse
//     opens an event stream whose first "endpoint" event names
//     /message?session_id=…; POST /message?session_id=… answers 202
//     Accepted and the JSON-RPC response arrives on the event stream;
//   - /api/climate: the get_climate structure as plain JSON;
//   - /healthz.
//
// The package never reshapes climate data: it serves the JSON its Climate
// source made once per change.
package mcp
