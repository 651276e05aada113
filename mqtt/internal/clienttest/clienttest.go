// Package clienttest makes the broker clients of the ingest's and the
// publishers' tests: fast to reconnect, logging through the test, run
// until the test ends. The client's own tests cannot use it (it imports
// package mqtt) and have their own.
package clienttest

import (
	"testing"
	"time"

	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/mqtt/internal/mqtttest"
)

// FastOptions are connection options for tests: short back-off.
func FastOptions(broker, prefix string) mqtt.Options {
	return mqtt.Options{
		Broker:         broker,
		Prefix:         prefix,
		ConnectTimeout: 2 * time.Second,
		ReconnectMax:   50 * time.Millisecond,
		KeepAlive:      5 * time.Second,
	}
}

// New is a client with opts, logging through t unless opts has a Logger.
func New(t testing.TB, opts mqtt.Options) *mqtt.Client {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = mqtttest.Logger(t)
	}
	c, err := mqtt.NewClient(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Run runs c until the test ends.
func Run(t testing.TB, c *mqtt.Client) { mqtttest.RunUntilCleanup(t, "client Run", c.Run) }
