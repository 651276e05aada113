// Package wire is what climated does to JSON-RPC messages before the
// go-sdk reads them and after it writes them, for the few things the SDK
// (v1.8.0) does not do yet. Each piece names the SDK behaviour it works
// around, and a test in sdk_test.go fails once the SDK changes that
// behaviour, so the piece can be deleted then:
//
//   - parse.go: the id and method of each message, read once; the pieces
//     below work on that.
//   - ids.go: request ids come back as sent. The SDK decodes an id through
//     float64 into int64 and re-encodes strings (9007199254740993 comes
//     back as 9007199254740992, 1.5 as 1). Waits on go-sdk#1253.
//   - methods.go: an unknown method is JSON-RPC -32601. The SDK's
//     Streamable HTTP handler answers it, before protocol 2026-07-28,
//     with HTTP 400 and plain text (go-sdk#976).
//   - initialize.go: a call before initialize is JSON-RPC -32600. The SDK
//     answers it with an error without a code (0 on the wire).
//
// The package does nothing else: the SDK does all other JSON-RPC work.
package wire
