package mqtt

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/url"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// open is paho's CustomOpenConnectionFn: the connection paho would open
// itself for the schemes Options.Broker takes, read through limitConn so
// that an oversized payload is never held. paho's own dialler also honours
// the all_proxy environment variable for tcp and TLS; a hub reaches its
// broker on the local network directly.
func (c *Client) open(uri *url.URL, o paho.ClientOptions) (net.Conn, error) {
	d := o.Dialer
	if d == nil {
		d = &net.Dialer{Timeout: o.ConnectTimeout}
	}
	var conn net.Conn
	var err error
	switch uri.Scheme {
	case "tcp", "mqtt":
		conn, err = d.Dial("tcp", uri.Host)
	case "ssl", "tls", "mqtts":
		conn, err = tls.DialWithDialer(d, "tcp", uri.Host, o.TLSConfig)
	case "ws", "wss":
		u := *uri
		u.User = nil // as paho does (its #623)
		var tc *tls.Config
		if uri.Scheme == "wss" {
			tc = o.TLSConfig
		}
		conn, err = paho.NewWebsocket(u.String(), tc, o.ConnectTimeout, o.HTTPHeaders, o.WebsocketOptions)
	default:
		return nil, fmt.Errorf("mqtt: broker scheme %q: want tcp, mqtt, ssl, tls, mqtts, ws or wss", uri.Scheme)
	}
	if err != nil {
		return nil, err
	}
	return newLimitConn(conn, &c.maxPayload), nil
}

// AllowPayload raises the largest payload the client reads to n.
func (c *Client) AllowPayload(n int) {
	for {
		cur := c.maxPayload.Load()
		if int64(n) <= cur || c.maxPayload.CompareAndSwap(cur, int64(n)) {
			return
		}
	}
}
