package testutil

import (
	"net"
	"testing"
)

// Listening listens on network and address and closes every connection
// it takes, until the test ends: a port or socket that something holds
// and answers on, and nothing more.
func Listening(t testing.TB, network, address string) net.Listener {
	t.Helper()
	ln, err := net.Listen(network, address)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return ln
}
