// Package perclient bounds what each client of the hub may hold open at
// once (MCP sessions and event streams, dashboard live streams) and what
// all clients hold together, without ever refusing anyone: a client past
// its share loses its own oldest hold, and at the ceiling the client that
// holds most loses its oldest. A client that leaks streams thus only ever
// closes its own, and a new client always gets in.
//
// A client is a remote address, and the bearer token when one is
// presented (Client); the dashboard, whose browsers present cookies,
// counts by address alone (Addr).
package perclient
