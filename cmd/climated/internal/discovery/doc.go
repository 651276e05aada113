// Package discovery makes the hub findable on the LAN with DNS-SD over
// multicast DNS (RFC 6762, RFC 6763): it announces _mcp._tcp (TXT: the
// MCP path, the protocol versions served, the kind of authentication)
// and _http._tcp (the dashboard), and browses for _mcp._tcp for
// climated connect.
//
// Where avahi-daemon runs, Avahi announces the hub from the service file
// the Debian package installs (avahi.go) and this package's responder
// stays silent: two responders on one host would each claim the host
// name. Elsewhere a small built-in responder answers (responder.go),
// on golang.org/x/net/dns/dnsmessage for the wire format. It is bounded
// by construction: it keeps no state from what other hosts send (no
// cache, no per-sender table), reads at most MaxPacket bytes a packet,
// answers at most Burst queries at once and Rate a second after that,
// and each answer fits one unfragmented packet.
//
// A hub that listens on loopback only announces nothing: the LAN could
// not reach what it would announce.
package discovery
