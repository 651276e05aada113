package mcp

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mcp/transport/mcptest"
	"github.com/climated/climated/sensors"
)

// wireError is the JSON-RPC error a client got, or fails the test.
func wireError(t *testing.T, what string, err error) *jsonrpc.Error {
	t.Helper()
	var wire *jsonrpc.Error
	if !errors.As(err, &wire) {
		t.Fatalf("%s: %v (%T), want a JSON-RPC error", what, err, err)
	}
	return wire
}

// TestHistoryErrorsTyped: through a real client over HTTP on loopback and a
// real SQLite file, a question naming what the hub lacks is -32602 with the
// valid values, and a database that fails for real (its series table gone
// under the hub) is -32603, logged once and telling the client nothing of
// SQLite.
func TestHistoryErrorsTyped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	var logs testutil.Buffer
	store := openTestStore(t, path)
	srv := New(t.Context(), store, &Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { srv.Close(); ts.Close(); store.Close(context.Background()) })
	cs := mcptest.Connect(t, &sdk.StreamableClientTransport{Endpoint: ts.URL + "/mcp"})
	ctx := context.Background()

	for _, c := range []struct {
		uri, arg string
		valid    []string
	}{
		{HistoryURI("Attic", sensors.Temperature, nil), "zone", []string{"Indoor", "Rain"}},
		{HistoryURI("Indoor", "Radon", nil), "measurement", []string{"CO2", "Temperature"}},
		{DailyURI("Attic", nil), "zone", []string{"Indoor", "Rain"}},
	} {
		_, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: c.uri})
		wire := wireError(t, c.uri, err)
		var data argData
		json.Unmarshal(wire.Data, &data)
		if wire.Code != jsonrpc.CodeInvalidParams || data.Argument != c.arg || !slices.Equal(data.Valid, c.valid) {
			t.Errorf("read %s: code %d data %s, want %d with argument %s valid %v", c.uri, wire.Code, wire.Data, jsonrpc.CodeInvalidParams, c.arg, c.valid)
		}
	}

	other, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.Exec("ALTER TABLE series RENAME TO series_gone"); err != nil {
		t.Fatal(err)
	}
	_, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: ToolGetHistory, Arguments: map[string]any{"zone": "Indoor", "measurement": "Temperature"}})
	checkInternal(t, "get_history", err)
	_, err = cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: DailyURI("Indoor", nil)})
	checkInternal(t, "daily", err)
	if n := strings.Count(strings.Join(logs.Lines(), "\n"), "history failed"); n != 2 || !strings.Contains(strings.Join(logs.Lines(), "\n"), "no such table: series") {
		t.Errorf("%d log lines of the failure, want 2 naming the missing table:\n%s", n, logs.Lines())
	}
}

func checkInternal(t *testing.T, what string, err error) {
	t.Helper()
	wire := wireError(t, what, err)
	if wire.Code != jsonrpc.CodeInternalError || wire.Message != msgInternal {
		t.Errorf("%s with the database broken: code %d %q, want %d %q", what, wire.Code, wire.Message, jsonrpc.CodeInternalError, msgInternal)
	}
}
