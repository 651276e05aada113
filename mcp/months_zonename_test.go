package mcp

import (
	"context"
	"net/url"
	"strconv"
	"testing"
	"time"

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
	now := time.Now()
	var rs []sensors.Reading
	for _, z := range zones {
		rs = append(rs, sensors.Reading{Zone: z, Measurement: sensors.Temperature, Value: 20.5, Time: now.Add(-time.Minute), Source: "test"})
	}
	cs := serveReadings(t, rs, nil, &Options{Zones: zones, Version: "test"})
	year := strconv.Itoa(now.Year())
	for _, z := range zones {
		for _, uri := range []string{MonthsURI(z, url.Values{"year": {year}}), DailyURI(z, url.Values{"from": {"2d"}})} {
			if _, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: uri}); err != nil {
				t.Errorf("zone %q, read %s: %v", z, uri, err)
			}
		}
	}
}
