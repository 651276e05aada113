package mcp

import (
	"context"
	"net/url"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/sensors"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMonthsOfZonesWithReservedCharacters: a zone's name is free text
// ("Kitchen & Dining" is a name a house has), and MonthsURI and DailyURI
// name the resources of any zone, as the daily span's refusal names the
// months resource to read instead. Tried: a store with readings of
// "Kitchen & Dining", "Flur:1", "Bad+WC", "Room=2", "Attic@Top" and
// "$Cellar", each one's climate://months and climate://daily read with a
// real client over the SDK's in-memory transport. A hole: zoneURI
// escapes with url.PathEscape, which leaves & : + = @ $ as they are, and
// the SDK matches a read against the template {zone}, whose expansion
// would percent-encode them: the URIs the hub itself builds answer
// "Resource not found".
func TestMonthsOfZonesWithReservedCharacters(t *testing.T) {
	zones := []string{"Kitchen & Dining", "Flur:1", "Bad+WC", "Room=2", "Attic@Top", "$Cellar"}
	store, err := hub.Open(context.Background(), filepath.Join(t.TempDir(), "h.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	var rs []sensors.Reading
	for _, z := range zones {
		rs = append(rs, sensors.Reading{Zone: z, Measurement: sensors.Temperature, Value: 20.5, Time: now.Add(-time.Minute), Source: "test"})
	}
	if err := store.Record(context.Background(), rs); err != nil {
		t.Fatal(err)
	}
	if err := store.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv := New(t.Context(), store, &Options{Zones: zones, Version: "test"})
	t.Cleanup(func() {
		srv.Close()
		store.Close(context.Background())
	})
	st, ct := sdk.NewInMemoryTransports()
	if _, err := srv.MCP().Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, ct)
	year := strconv.Itoa(now.Year())
	for _, z := range zones {
		for _, uri := range []string{MonthsURI(z, url.Values{"year": {year}}), DailyURI(z, url.Values{"from": {"2d"}})} {
			if _, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: uri}); err != nil {
				t.Errorf("zone %q, read %s: %v", z, uri, err)
			}
		}
	}
}
