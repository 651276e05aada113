package main

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"testing"
)

// tunnel is what Tailscale Funnel and Cloudflare Tunnel put in front of a
// hub that listens on plain HTTP: an https server of another name that
// passes every request on to the hub, with the Host it was asked for and
// X-Forwarded-For, -Host and -Proto. Tailscale's serve proxy sets
// r.Out.Host = r.In.Host (tailscale/tailscale ipn/ipnlocal/serve.go,
// reverseProxy.ServeHTTP); cloudflared sends the public hostname as Host
// unless its originRequest.httpHostHeader says otherwise. The name is
// hub.example.com: httptest's certificate is for *.example.com, and
// client resolves that name to the tunnel.
type tunnel struct {
	srv    *httptest.Server
	URL    string       // the public URL, https://hub.example.com:PORT
	client *http.Client // trusts the tunnel's certificate, resolves its name
}

// newTunnel starts a tunnel to the hub at hubAddr (host:port); the hub
// need not be listening yet.
func newTunnel(t *testing.T, hubAddr string) *tunnel {
	t.Helper()
	return startTunnel(t, hubAddr, true)
}

// newRewritingProxy is a proxy that sends the hub's own address as the
// Host and no X-Forwarded-For, as nginx's proxy_pass does by default.
func newRewritingProxy(t *testing.T, hubAddr string) *tunnel {
	t.Helper()
	return startTunnel(t, hubAddr, false)
}

func startTunnel(t *testing.T, hubAddr string, keepHost bool) *tunnel {
	t.Helper()
	target := &url.URL{Scheme: "http", Host: hubAddr}
	srv := httptest.NewTLSServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(target)
		if keepHost {
			r.Out.Host = r.In.Host
			r.SetXForwarded()
		}
	}})
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	tr := srv.Client().Transport.(*http.Transport).Clone()
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
	}
	return &tunnel{srv: srv, URL: "https://hub.example.com:" + port, client: &http.Client{Transport: tr}}
}
