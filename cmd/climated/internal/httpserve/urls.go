package httpserve

import (
	"net"
	"strconv"
)

// maxNetworkURLs bounds the addresses the start-up log lists.
const maxNetworkURLs = 4

// BaseURL is the base URL the start-up log gives for the listener's
// address: the address itself, or loopback for an unspecified one (listen
// ":8473", "0.0.0.0:8473", "[::]:8473"), which reaches it from this
// machine; "http://[::]:8473" is not a URL a client can use.
func BaseURL(addr net.Addr) string {
	ta, ok := addr.(*net.TCPAddr)
	if !ok || !ta.IP.IsUnspecified() {
		return "http://" + addr.String()
	}
	return "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(ta.Port))
}

// NetworkURLs are the base URLs other machines reach an unspecified
// listener at: one per address of this machine's interfaces that are up,
// loopback and link-local left out, IPv4 first, at most maxNetworkURLs;
// none for a listener on one address.
func NetworkURLs(addr net.Addr, addrs []net.Addr) []string {
	ta, ok := addr.(*net.TCPAddr)
	if !ok || !ta.IP.IsUnspecified() {
		return nil
	}
	port := strconv.Itoa(ta.Port)
	// A tcp4 listener on 0.0.0.0 takes IPv4 only; Go listens on "0.0.0.0"
	// with a socket that takes IPv6 too where it can, and reports [::].
	v4only := ta.IP.To4() != nil
	var v4, v6 []string
	for _, a := range addrs {
		in, ok := a.(*net.IPNet)
		if !ok || in.IP.IsLoopback() || in.IP.IsLinkLocalUnicast() || !in.IP.IsGlobalUnicast() {
			continue
		}
		if in.IP.To4() != nil {
			v4 = append(v4, "http://"+net.JoinHostPort(in.IP.String(), port))
		} else if !v4only {
			v6 = append(v6, "http://"+net.JoinHostPort(in.IP.String(), port))
		}
	}
	out := append(v4, v6...)
	return out[:min(len(out), maxNetworkURLs)]
}
