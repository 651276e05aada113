package mqtttest

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
)

// Discard is a logger that drops everything.
func Discard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// Logger logs through t, so that a failing test shows what happened.
func Logger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// LoggerTo logs through t and into buf, for a test that checks what was
// logged.
func LoggerTo(t testing.TB, buf *testutil.Buffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(io.MultiWriter(buf, tWriter{t}), &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type tWriter struct{ t testing.TB }

func (w tWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(string(bytes.TrimRight(p, "\n")))
	return len(p), nil
}

// RunUntilCleanup runs run in a goroutine until the test ends, then
// cancels its context and waits for it; an error it returns fails the test.
func RunUntilCleanup(t testing.TB, name string, run func(context.Context) error) {
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

// Publish publishes payload on topic through c, failing the test on error.
func Publish(t testing.TB, c paho.Client, topic string, qos byte, retained bool, payload string) {
	t.Helper()
	if tok := c.Publish(topic, qos, retained, payload); !tok.WaitTimeout(testutil.Patience) || tok.Error() != nil {
		t.Fatalf("publish %s: %v", topic, tok.Error())
	}
}

// WantErr checks err against want: "" means no error, else a part of it.
func WantErr(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("unexpected error: %v", err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Errorf("error %v, want one containing %q", err, want)
	}
}

// Recv takes the next value from ch, or fails after testutil.Patience.
func Recv[T any](t testing.TB, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(testutil.Patience):
		t.Fatal("timed out waiting for a message")
		var zero T
		return zero
	}
}
