package testutil

import (
	"io"
	"log/slog"
	"testing"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/hooks/auth"
	"github.com/mochi-mqtt/server/v2/listeners"
)

// Broker runs an in-process MQTT broker (mochi) on the listener l until
// the test ends, with hook and its config (nil: anyone may connect), and
// an inline client for the test to publish with.
func Broker(t testing.TB, l listeners.Listener, hook mochi.Hook, config any) *mochi.Server {
	t.Helper()
	srv := mochi.New(&mochi.Options{InlineClient: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if hook == nil {
		hook = new(auth.AllowHook)
	}
	if err := srv.AddHook(hook, config); err != nil {
		t.Fatal(err)
	}
	if err := srv.AddListener(l); err != nil {
		t.Fatal(err)
	}
	go srv.Serve()
	t.Cleanup(func() { srv.Close() })
	return srv
}
