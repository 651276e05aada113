// Package transport carries one go-sdk MCP server to its clients: over
// HTTP (HTTP, its Handler) and on a pipe (Stdio). It knows nothing of
// what the server serves; package mcp builds the server (its tools,
// resources and prompts) and hands it to NewHTTP with Options, the limits
// and timeouts, a clock and the loggers. Start reading at http.go.
//
//   - /mcp: Streamable HTTP (streamable.go). Protocol 2026-07-28 and
//     server/discover are served statelessly, as that revision requires,
//     notifications coming on subscriptions/listen streams; revisions
//     2025-03-26 to 2025-11-25 keep their sessions (stateless.go), which
//     end after an idle timeout (SessionTimeout), sooner
//     (StreamlessTimeout) when they hold no stream and no request
//     (idle.go);
//   - GET /sse and POST /message?session_id=…: the older HTTP+SSE
//     transport (MCP 2024-11-05; sse.go, sseconn.go): the answer to a
//     POST (202 Accepted) arrives on the event stream;
//   - Stdio: one JSON-RPC message a line (stdio.go), every request read
//     answered before the end of input ends the session (stdiodrain.go).
//
// ProtocolVersions and SSEProtocolVersions name the revisions each serves
// (versions.go).
//
// Before the SDK does the JSON-RPC, the transports bound the work a
// client can make the hub hold: every call counts against its session's
// MaxInFlight (inflight.go); sessions and streams are bounded per client
// and for all together, a client past its share losing its own oldest
// (share.go, perclient); a write to an event stream that its client does
// not read fails after StreamWriteTimeout (deadline.go); what an OAuth
// token opened ends once its grant no longer holds (grants.go). Guard,
// the server's first middleware on every transport, bounds each request's
// time and turns a handler's panic into an error (security.go), and
// SDKLogger quiets the SDK's logging (sdklog.go).
//
// What the SDK does not do yet at the wire is in internal/wire, each
// piece naming the SDK behaviour it waits on: request ids come back as
// sent, an unknown method is -32601 and a call before initialize -32600
// on every transport. The pieces here name their reason too (stateless.go,
// idle.go, sse.go); a TestSDK… test fails once the SDK does a piece's
// job, so that it can go then.
package transport
