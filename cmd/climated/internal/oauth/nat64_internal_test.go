package oauth

import (
	"net/netip"
	"testing"
)

// TestLocalNAT64PrefixLengths: the local-use NAT64 prefix
// 64:ff9b:1::/48 (RFC 8215) is used with any prefix length from /48 to
// /96, and RFC 6052 §2.2 puts the IPv4 address elsewhere for each: at
// /48 in bytes 6–7 and 9–10, at /56 in 7 and 9–11, at /64 in 9–12. An
// address carrying 10.0.0.1 or 127.0.0.1 in one of those places, and a
// public address in the last four bytes, must be refused. (Adversarial
// pass 38: only the /96 place was read, so these passed as public.)
func TestLocalNAT64PrefixLengths(t *testing.T) {
	for _, addr := range []string{
		"64:ff9b:1:a00:0:100:808:808",  // /48: 10.0.0.1, then 8.8.8.8 where /96 reads
		"64:ff9b:1:7f00:0:100:808:808", // /48: 127.0.0.1
		"64:ff9b:1:a:0:1:808:808",      // /56: 10.0.0.1
		"64:ff9b:1:0:a:1:808:808",      // /64: 10.0.0.1
	} {
		if publicAddr(netip.MustParseAddr(addr)) {
			t.Errorf("publicAddr(%s) = true: it carries a private IPv4 address at a local NAT64 prefix length", addr)
		}
	}
}
