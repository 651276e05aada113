package doctor

import (
	"context"
	"net"
	"strings"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/config"
)

// TestListenReach: doctor says who reaches the listener. A loopback
// listener with public_url is reached through the tunnel or proxy on the
// machine, not by the LAN ("other machines" misled users of a tunnel).
func TestListenReach(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	free := ln.Addr().String()
	ln.Close()
	for _, c := range []struct {
		listen, publicURL string
		want, not         string
	}{
		{free, "", "only programs on this machine", "other machines"},
		{free, "https://hub.example.ts.net", "through the tunnel or proxy at https://hub.example.ts.net", "other machines"},
		{"0.0.0.0:0", "", "every network this machine is on", "tunnel"},
	} {
		cfg := config.Default()
		cfg.Listen, cfg.PublicURL = c.listen, c.publicURL
		f := checkListen(context.Background(), cfg, Env{})
		if len(f) != 1 || !strings.Contains(f[0].Detail, c.want) || strings.Contains(f[0].Detail, c.not) {
			t.Errorf("listen %s, public_url %q: %+v; want %q and not %q", c.listen, c.publicURL, f, c.want, c.not)
		}
	}
}
