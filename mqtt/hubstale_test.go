package mqtt

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mcp"
	"github.com/climated/climated/sensors"
)

// Another hub's status going offline makes the zones it fed stale at once
// in describe_zones and the zones resource, not only after StaleAfter of silence: through the
// broker, the ingest, a real SQLite history and the MCP server.
func TestOfflineHubZonesStaleInMCP(t *testing.T) {
	srv, broker := startMochi(t)
	a := startHub(t, broker, "climated/a", "climated/b")
	b := startHubOn(t, broker, "climated/b", "climated/a/#")
	waitSubscribed(t, srv, "climated/a/x/state")
	a.record(t, sensors.Reading{Zone: "Bedroom", Measurement: sensors.Temperature, Value: 19.5, Time: time.Now().Truncate(time.Second), Source: "i2c1/0x76"})
	testutil.WaitFor(t, "Bedroom on hub b", func() bool { got, _ := value(b.store, "Bedroom", "Temperature"); return got == 19.5 })

	server := mcp.New(t.Context(), b.store, &mcp.Options{Version: "test"})
	t.Cleanup(server.Close)
	st, ct := sdk.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := server.MCP().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	bedroom := func() (stale bool, lastError string) {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: mcp.ToolDescribeZones})
		if err != nil || res.IsError {
			t.Fatalf("describe_zones: %v %+v", err, res)
		}
		var out struct {
			Zones []struct {
				Name      string `json:"name"`
				Stale     bool   `json:"stale"`
				LastError string `json:"last_error"`
			} `json:"zones"`
		}
		data, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(data, &out); err != nil {
			t.Fatal(err)
		}
		for _, z := range out.Zones {
			if z.Name == "Bedroom" {
				return z.Stale, z.LastError
			}
		}
		t.Fatalf("describe_zones has no Bedroom: %s", data)
		return false, ""
	}
	if stale, _ := bedroom(); stale {
		t.Fatal("Bedroom stale while hub a is online")
	}
	// Hub a stops and says offline. (Another client's offline on its
	// status topic, while it runs, hub a would answer: ownstatus.go.)
	a.stop()
	testutil.WaitFor(t, "Bedroom's offline error", func() bool { _, e := bedroom(); return e != "" })
	if stale, e := bedroom(); !stale {
		t.Errorf("Bedroom not stale with hub a offline (last_error %q)", e)
	}
	// The zones resource says the same.
	res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: mcp.URIZones})
	if err != nil {
		t.Fatal(err)
	}
	var zones struct {
		Zones []struct {
			Name  string `json:"name"`
			Stale bool   `json:"stale"`
		} `json:"zones"`
	}
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &zones); err != nil {
		t.Fatal(err)
	}
	if len(zones.Zones) != 1 || zones.Zones[0].Name != "Bedroom" || !zones.Zones[0].Stale {
		t.Errorf("%s = %s, want Bedroom stale", mcp.URIZones, res.Contents[0].Text)
	}
}
