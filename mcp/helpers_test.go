package mcp

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/mcp/transport/mcptest"
	"github.com/climated/climated/sensors"
)

// testHub is a real history store on a temporary SQLite file behind a real
// HTTP server on loopback.
type testHub struct {
	store *hub.Hub
	srv   *Server
	http  *httptest.Server
}

func newTestHub(t testing.TB) *testHub {
	t.Helper()
	return newTestHubWith(t, Options{})
}

// newTestHubWith is newTestHub with opts, its zones, version and demo flag
// set.
func newTestHubWith(t testing.TB, opts Options) *testHub {
	t.Helper()
	store := openTestStore(t, filepath.Join(t.TempDir(), "h.db"))
	opts.Zones, opts.Simulated, opts.Version = []string{"Indoor", "Rain"}, true, "test"
	srv := New(t.Context(), store, &opts)
	h := &testHub{store: store, srv: srv, http: httptest.NewServer(srv.Handler())}
	t.Cleanup(func() {
		srv.Close()
		h.http.Close()
		store.Close(context.Background())
	})
	return h
}

// openTestStore is a real store at path with readings of Indoor
// (Temperature, CO2) and Rain, on disk.
func openTestStore(t testing.TB, path string) *hub.Hub {
	t.Helper()
	store, err := hub.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if err := store.Record(context.Background(), sensors.Batch{Readings: []sensors.Reading{
		{Zone: "Indoor", Measurement: sensors.Temperature, Value: 21.5, Time: now.Add(-time.Minute), Source: "test"},
		{Zone: "Indoor", Measurement: sensors.Temperature, Value: 21.7, Time: now, Source: "test"},
		{Zone: "Indoor", Measurement: sensors.CO2, Value: 612, Time: now, Source: "test"},
		{Zone: "Rain", Measurement: sensors.Rain, Value: 0.3, Time: now, Source: "test"},
	}}); err != nil {
		t.Fatal(err)
	}
	if err := store.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	return store
}

// inMemory connects a client with opts to the hub's server in memory.
func (h *testHub) inMemory(t testing.TB, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	st, ct := sdk.NewInMemoryTransports()
	if _, err := h.srv.MCP().Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	return mcptest.ConnectWith(t, ct, opts)
}

// hubWith serves a real store with the given options.
func hubWith(t *testing.T, opts Options) (*Server, *httptest.Server) {
	t.Helper()
	// One clock for the hub and the server, as climated serve has: the hub
	// judges readings ahead of its clock (climate.NewestCurrent) by it.
	store, err := hub.Open(context.Background(), filepath.Join(t.TempDir(), "h.db"), &history.Options{Now: opts.Now})
	if err != nil {
		t.Fatal(err)
	}
	srv := New(t.Context(), store, &opts)
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { srv.Close(); ts.Close(); store.Close(context.Background()) })
	return srv, ts
}

// serveReadings connects a client in memory to a server with opts over a
// real store with hubOpts that holds rs.
func serveReadings(t *testing.T, rs []sensors.Reading, hubOpts *history.Options, opts *Options) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	store, err := hub.Open(ctx, filepath.Join(t.TempDir(), "h.db"), hubOpts)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
	if err := store.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	srv := New(t.Context(), store, opts)
	t.Cleanup(func() {
		srv.Close()
		store.Close(ctx)
	})
	st, ct := sdk.NewInMemoryTransports()
	if _, err := srv.MCP().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	return mcptest.Connect(t, ct)
}
