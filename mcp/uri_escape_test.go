package mcp

import (
	"context"
	"encoding/json"
	"net/url"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// templateChars is what a URI the hub builds may hold: the characters a
// URI template's {zone} and {?from,to} expand to (unreserved, percent
// escapes, and = & between the query's names and values).
var templateChars = regexp.MustCompile(`^climate://[a-z]+(/[A-Za-z0-9._~%-]+)+(\?[A-Za-z0-9._~%=&-]+)?$`)

// TestResourceURIsOfAnyZoneName: every resource URI the hub builds for a
// zone, whatever its name, holds only what the templates expand to, is
// read with a real client, and names the zone it was built for.
func TestResourceURIsOfAnyZoneName(t *testing.T) {
	zones := []string{"Kitchen & Dining", "Bad/WC", "100%", "What?", "#1", "Küche", "a,b", "x;y", "'q\"", "~._-", "a+b=c"}
	now := time.Now()
	var rs []sensors.Reading
	for _, z := range zones {
		rs = append(rs, sensors.Reading{Zone: z, Measurement: sensors.Temperature, Value: 20.5, Time: now.Add(-time.Minute), Source: "test"})
	}
	cs := serveReadings(t, rs, nil, &Options{Zones: zones, Version: "test"})
	ctx := context.Background()
	year := url.Values{"year": {strconv.Itoa(now.Year())}}
	spaced := url.Values{"from": {"2d"}, "measurements": {"Temperature, CO2"}}
	for _, z := range zones {
		uris := []string{ZoneURI(z), HistoryURI(z, sensors.Temperature, url.Values{"from": {"1h"}}),
			DailyURI(z, spaced), RecordsURI(z, nil), MonthsURI(z, year)}
		for _, uri := range uris {
			if !templateChars.MatchString(uri) {
				t.Errorf("zone %q: %s holds what no template expands to", z, uri)
			}
			res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
			if err != nil {
				t.Errorf("zone %q, read %s: %v", z, uri, err)
			}
			if uri != uris[2] || err != nil {
				continue
			}
			var v struct{ Zone string }
			if err := json.Unmarshal([]byte(res.Contents[0].Text), &v); err != nil || v.Zone != z {
				t.Errorf("read %s: zone %q (%v), want %q", uri, v.Zone, err, z)
			}
		}
	}
}
