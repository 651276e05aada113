// Package oauth is the hub's OAuth 2.1 authorization server, for one
// household: the metadata of RFC 9728 and RFC 8414, Dynamic Client
// Registration (RFC 7591), authorization codes with PKCE S256, and refresh
// tokens rotated on every use with reuse detection. Every token is bound
// to the MCP endpoint it was asked for (RFC 8707).
//
// It keeps its state in the history's SQLite file, in its own part of the
// schema (Schema, migrations/), hashes only, and holds a bounded amount of
// it: see the Default* constants. docs/oauth.md says why it is written
// here on go-sdk's oauthex types rather than on an OAuth framework.
package oauth
