// Package dash is the hub's dashboard: a page with one card per zone, charts
// of each measurement's history (uPlot, vendored in internal/uplot) and
// live updates over server-sent events.
//
// Everything it serves is embedded in the binary and gzipped once at start.
// It reads the house through the small Source interface, so it depends on
// neither the MCP server nor the storage; FromStore adapts a history.Store.
// Off loopback it asks once for the hub's token and keeps a session cookie
// (see auth.go); loopback requests with a loopback Host pass as the MCP
// endpoints' do.
package dash
