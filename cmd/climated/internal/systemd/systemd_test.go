package systemd

import (
	"net"
	"testing"
)

// TestLoopbackAddr: the watchdog's own request reaches a listener on
// every address through loopback, and one on a given address there.
func TestLoopbackAddr(t *testing.T) {
	for addr, want := range map[string]string{
		"0.0.0.0:8473":      "127.0.0.1:8473",
		"[::]:8473":         "127.0.0.1:8473",
		"127.0.0.1:8473":    "127.0.0.1:8473",
		"192.168.1.20:8473": "192.168.1.20:8473",
		"[fd00::1]:8473":    "[fd00::1]:8473",
	} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := loopbackAddr(a); got != want {
			t.Errorf("loopbackAddr(%s) = %s, want %s", addr, got, want)
		}
	}
}
