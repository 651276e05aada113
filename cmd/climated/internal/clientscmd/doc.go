// Package clientscmd is `climated clients`: the assistants signed in with
// OAuth (docs/oauth.md), listed and revoked from the database beside a
// running hub.
package clientscmd
