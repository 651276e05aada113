package history

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestImportWithoutSourceNeverJoinsTheDemo: a CSV file in export's format
// whose source column is empty (a thermometer's own log, a database of
// before sources) is accepted, and its readings are not the demo's. Put
// into a zone the demo filled, they must not join the demo's series as
// simulated readings: forgetting the demo must leave them.
func TestImportWithoutSourceNeverJoinsTheDemo(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	s := openTest(t, path, nil)
	t0 := time.Now().Add(-5 * time.Hour).Truncate(time.Hour)
	var rs []sensors.Reading
	for i := range 60 {
		rs = append(rs, sensors.Reading{Zone: "Bedroom", Measurement: sensors.Temperature, Value: 30, Time: t0.Add(time.Duration(i) * time.Minute), Source: "demo/Bedroom"})
	}
	if err := s.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var csv strings.Builder
	csv.WriteString(strings.Join(ExportHeader, ",") + "\n")
	for i := 60; i < 120; i++ {
		fmt.Fprintf(&csv, "%s,Bedroom,Temperature,20,\n", t0.Add(time.Duration(i)*time.Minute).Format(time.RFC3339))
	}
	res, err := s.Import(ctx, strings.NewReader(csv.String()), ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("imported %d readings; Bedroom's temperature holds %v", res.Imported, seriesReadings(t, path, "Bedroom"))
	if got := seriesReadings(t, path, "Bedroom"); got[20] > 0 && got[30] > 0 {
		t.Errorf("Bedroom's temperature mixes the demo's simulated readings with the imported ones: %v", got)
	}
	rep, err := s.ForgetSource(ctx, sensors.SimulatedPrefix)
	if err != nil {
		t.Fatal(err)
	}
	if got := seriesReadings(t, path, "Bedroom"); got[20] != 60 {
		t.Errorf("forgetting the demo (%d readings) left Bedroom's temperature %v; want the 60 imported readings of 20 °C", rep.Readings, got)
	}
}
