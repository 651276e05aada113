package mcp

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestGetHistoryDayStepOverADayCountsOnlyItsReadings: get_history over
// the last 24 hours at a step of a day summarises the readings of those
// 24 hours, not those of the hours before "from" on its first day.
func TestGetHistoryDayStepOverADayCountsOnlyItsReadings(t *testing.T) {
	h := newTestHub(t)
	ctx := context.Background()
	now := time.Now()
	before := climate.LocalMidnight(now.Add(-24*time.Hour), time.Local).Add(time.Second)
	if !before.Before(now.Add(-24*time.Hour - time.Minute)) {
		t.Skip("the day before started less than a minute before 24 hours ago")
	}
	if err := h.store.Record(ctx, sensors.Batch{Readings: []sensors.Reading{
		{Zone: "Indoor", Measurement: sensors.Temperature, Value: -40, Time: before, Source: "test"},
	}}); err != nil {
		t.Fatal(err)
	}
	if err := h.store.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	cs := h.inMemory(t, nil)
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: ToolGetHistory, Arguments: historyArgs{Zone: "Indoor", Measurement: "Temperature", From: "24h", Step: "1d"}})
	if err != nil || res.IsError {
		t.Fatalf("get_history: %v %+v", err, res)
	}
	var s struct {
		From    int64
		Summary struct {
			Count int
			Min   float64
		}
	}
	json.Unmarshal([]byte(toJSON(res.StructuredContent)), &s)
	if s.Summary.Count != 2 || s.Summary.Min == -40 {
		t.Errorf("summary %+v from %s; want the 2 readings of the last 24 hours, not the -40 of %s", s.Summary, time.Unix(s.From, 0), before)
	}
}
