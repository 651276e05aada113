package dash_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/dash"
	"github.com/climated/climated/history"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/demo"
)

// demoStore is a real SQLite history filled by the demo house over
// [now-span, now]: hourly readings imported (as climated import does, so
// they reach the rollup tiers at once), then readings every 5 minutes of
// the last day recorded as a running hub records them.
func demoStore(t testing.TB, span time.Duration) (*hub.Hub, *demo.House) {
	t.Helper()
	ctx := context.Background()
	store := emptyStore(t)
	house := demo.New(&demo.Options{Location: time.UTC})
	now := time.Now().Truncate(5 * time.Minute)
	day := now.Add(-24 * time.Hour)
	var csv bytes.Buffer
	csv.WriteString(strings.Join(history.ExportHeader, ",") + "\n")
	for at := now.Add(-span); at.Before(day); at = at.Add(time.Hour) {
		for _, r := range house.At(at) {
			fmt.Fprintf(&csv, "%s,%s,%s,%g,%s\n", r.Time.UTC().Format(time.RFC3339), r.Zone, r.Measurement, r.Value, r.Source)
		}
	}
	if _, err := store.Import(ctx, &csv, history.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	var batch []sensors.Reading
	for at := day; !at.After(now); at = at.Add(5 * time.Minute) {
		batch = append(batch, house.At(at)...)
	}
	if err := store.Record(ctx, sensors.Batch{Readings: batch}); err != nil {
		t.Fatal(err)
	}
	if err := store.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	return store, house
}

// emptyStore is a real SQLite history with nothing in it yet.
func emptyStore(t testing.TB) *hub.Hub {
	t.Helper()
	return emptyStoreIn(t, time.UTC)
}

// emptyStoreIn is emptyStore in the time zone loc.
func emptyStoreIn(t testing.TB, loc *time.Location) *hub.Hub {
	t.Helper()
	store, err := hub.Open(context.Background(), filepath.Join(t.TempDir(), "h.db"), &history.Options{Location: loc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close(context.Background()) })
	return store
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

// serveDroppable is serve with a drop that cuts every open connection
// (the hub restarting, a Wi-Fi hiccup), the server still listening.
func serveDroppable(t testing.TB, ip string, h http.Handler) (base string, drop func()) {
	t.Helper()
	ln, err := net.Listen("tcp", ip+":0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	conns := map[net.Conn]bool{}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ConnState: func(c net.Conn, s http.ConnState) {
		mu.Lock()
		defer mu.Unlock()
		if s == http.StateClosed || s == http.StateHijacked {
			delete(conns, c)
		} else {
			conns[c] = true
		}
	}}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String(), func() {
		mu.Lock()
		defer mu.Unlock()
		for c := range conns {
			c.Close()
		}
	}
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
