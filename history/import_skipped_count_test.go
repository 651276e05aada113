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

// TestImportCountsNoSkippedSimulatedRows: the demo's rows of a file (an
// export of a hub that ran the demo) imported into a series a station
// measures are not written (sensors.Claim skips them). The import's
// result, which climated import prints as what it imported, must not
// count them as imported: it would say the demo's readings are in the
// history beside the station's.
func TestImportCountsNoSkippedSimulatedRows(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	s := openTest(t, path, nil)
	t0 := time.Now().Add(-5 * time.Hour).Truncate(time.Hour)
	if err := s.Record(ctx, sensors.Batch{Readings: []sensors.Reading{{Zone: "Bedroom", Measurement: sensors.Temperature, Value: 20, Time: t0, Source: "station/gw2000a"}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var csv strings.Builder
	csv.WriteString(strings.Join(ExportHeader, ",") + "\n")
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&csv, "%s,Bedroom,Temperature,30,demo/Bedroom\n", t0.Add(time.Duration(i)*time.Minute).Format(time.RFC3339))
	}
	res, err := s.Import(ctx, strings.NewReader(csv.String()), ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := seriesReadings(t, path, "Bedroom")
	if got[30] != 0 {
		t.Fatalf("Bedroom holds %v: the demo's rows were written into the station's series", got)
	}
	if res.Imported != int64(got[30]) {
		t.Errorf("the import says it imported %d readings; Bedroom holds %v, none of the file's", res.Imported, got)
	}
}
