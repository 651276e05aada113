// Package stdio is what climated mcp puts between stdin/stdout and the
// SDK's stdio transport: a filter that answers lines that are no JSON-RPC
// message (the SDK's decoder cannot carry on after them) and a writer that
// keeps each message whole.
package stdio
