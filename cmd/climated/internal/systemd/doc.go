// Package systemd is the hub's side of a Type=notify service: it says
// when it is ready, reloading and stopping, and feeds the watchdog only
// while the history writer and the HTTP server answer. Outside systemd
// (no NOTIFY_SOCKET) it does nothing.
package systemd
