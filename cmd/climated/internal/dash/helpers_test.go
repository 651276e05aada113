package dash_test

import (
	"context"
	"net"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/dash"
	"github.com/climated/climated/history"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/demo"
)

// demoStore is a real SQLite history filled by the demo house over
// [now-span, now]: hourly readings, then every 5 minutes for the last day.
func demoStore(t testing.TB, span time.Duration) (*history.Store, *demo.House) {
	t.Helper()
	ctx := context.Background()
	store, err := history.Open(ctx, filepath.Join(t.TempDir(), "h.db"), &history.Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close(context.Background()) })
	house := demo.New(&demo.Options{Location: time.UTC})
	now := time.Now().Truncate(5 * time.Minute)
	var batch []sensors.Reading
	flush := func() {
		if err := store.Record(ctx, batch); err != nil {
			t.Fatal(err)
		}
		batch = batch[:0]
	}
	for at := now.Add(-span); !at.After(now); {
		batch = append(batch, house.At(at)...)
		if len(batch) > 20000 {
			flush()
		}
		if now.Sub(at) > 24*time.Hour {
			at = at.Add(time.Hour)
		} else {
			at = at.Add(5 * time.Minute)
		}
	}
	flush()
	if err := store.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	return store, house
}

// serve runs h on a real HTTP server at ip:0 and returns its base URL.
func serve(t testing.TB, ip string, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", ip+":0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		srv.Close()
	})
	return "http://" + ln.Addr().String()
}

func newDash(t testing.TB, src dash.Source, opts *dash.Options) *dash.Handler {
	t.Helper()
	h, err := dash.New(src, opts)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// remote plays a client on another machine: no address is on this one
// (a client of 127.0.0.2 connects from 127.0.0.1).
func remote(string) bool { return false }
