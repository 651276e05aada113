package mqtt

import (
	"testing"
	"time"

	"github.com/climated/climated/mqtt/internal/mqtttest"
)

// fastOptions are connection options for tests: short back-off.
func fastOptions(broker, prefix string) Options {
	return Options{
		Broker:         broker,
		Prefix:         prefix,
		ConnectTimeout: 2 * time.Second,
		ReconnectMax:   50 * time.Millisecond,
		KeepAlive:      5 * time.Second,
	}
}

func runClient(t testing.TB, c *Client) { mqtttest.RunUntilCleanup(t, "client Run", c.Run) }

func newClient(t testing.TB, opts Options) *Client {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = mqtttest.Logger(t)
	}
	c, err := NewClient(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
