package mqtt

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

func discard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// testLogger logs through t, so that a failing test shows what happened.
func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type tWriter struct{ t testing.TB }

func (w tWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(string(bytes.TrimRight(p, "\n")))
	return len(p), nil
}

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

// runUntilCleanup runs run in a goroutine until the test ends, then
// cancels its context and waits for it; an error it returns fails the test.
func runUntilCleanup(t testing.TB, name string, run func(context.Context) error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := run(ctx); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
}

func runClient(t testing.TB, c *Client) { runUntilCleanup(t, "client Run", c.Run) }

func newClient(t testing.TB, opts Options) *Client {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = testLogger(t)
	}
	c, err := NewClient(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func runIngest(t testing.TB, in *Ingest, sink sensors.Sink) {
	runUntilCleanup(t, "ingest Run", func(ctx context.Context) error { return in.Run(ctx, sink) })
}

// value reads zone's key from the sink's get_climate structure.
func value(s *storeSink, zone, key string) (any, bool) {
	z, ok := s.Snapshot().Climate[zone]
	if !ok {
		return nil, false
	}
	v, ok := z[key]
	return v, ok
}

func publish(t testing.TB, c paho.Client, topic string, qos byte, retained bool, payload string) {
	t.Helper()
	if tok := c.Publish(topic, qos, retained, payload); !tok.WaitTimeout(testutil.Patience) || tok.Error() != nil {
		t.Fatalf("publish %s: %v", topic, tok.Error())
	}
}

// wantErr checks err against want: "" means no error, else a part of it.
func wantErr(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("unexpected error: %v", err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Errorf("error %v, want one containing %q", err, want)
	}
}

// recv takes the next message from ch, or fails after testutil.Patience.
func recv(t testing.TB, ch <-chan Message) Message {
	t.Helper()
	select {
	case m := <-ch:
		return m
	case <-time.After(testutil.Patience):
		t.Fatal("timed out waiting for a message")
		return Message{}
	}
}
