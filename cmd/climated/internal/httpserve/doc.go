// Package httpserve is the hub's HTTP server: the port it listens on (with
// a hint when another hub holds it), the server's limits, its shutdown
// that neither event streams nor MCP sessions hold up, and the URLs the
// start-up log gives for a listener.
package httpserve
