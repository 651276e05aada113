package mcp

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// dailyDays reads climate://daily of zone Living over [from, to) from a
// hub in loc whose clock says now, with a reading at noon of every day
// from 40 days before now: the days answered, or the error.
func dailyDays(t *testing.T, loc *time.Location, now time.Time, from, to string) ([]any, error) {
	t.Helper()
	var rs []sensors.Reading
	for d := now.AddDate(0, 0, -40); d.Before(now); d = d.AddDate(0, 0, 1) {
		noon := time.Date(d.Year(), d.Month(), d.Day(), 12, 0, 0, 0, loc)
		rs = append(rs, sensors.Reading{Zone: "Living", Measurement: sensors.Temperature, Value: 20, Time: noon, Source: "test"})
	}
	cs := serveReadings(t, rs, &history.Options{Now: testutil.FixedClock(now), Location: loc},
		&Options{Zones: []string{"Living"}, Version: "test", Location: loc, Now: testutil.FixedClock(now)})
	ctx := context.Background()
	res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: DailyURI("Living", url.Values{"from": {from}, "to": {to}})})
	if err != nil {
		return nil, err
	}
	var v struct{ Days []any }
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &v); err != nil {
		t.Fatal(err)
	}
	return v.Days, nil
}

// TestDailySpanIsCountedInLocalDays: climate://daily answers at most 31
// days (a month), and every month. Tried: 745 hours from midnight UTC on
// 2026-05-01 in a hub on UTC (the 32 days from May 1 to June 1), and
// October 2026 in Antarctica/Troll, whose summer time is two hours (its
// 2026-10-25 lasts 26 hours, the month 746). A hole: the span is
// measured in hours against 31 days and one hour (maxDailySpan), not in
// local days: the first answers 32 days, the second refuses a month.
func TestDailySpanIsCountedInLocalDays(t *testing.T) {
	t.Run("32 days", func(t *testing.T) {
		now := time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)
		days, err := dailyDays(t, time.UTC, now, "2026-05-01", "2026-06-01T01:00:00Z")
		if err != nil {
			if !strings.Contains(err.Error(), "at most 31 days") {
				t.Fatalf("daily from 2026-05-01 to 06-01 01:00 (745 hours): %v; want at most 31 days or a refusal that names the limit", err)
			}
			return
		}
		if len(days) > 31 {
			t.Errorf("daily from 2026-05-01 to 06-01 01:00 answered %d days; want at most 31 (or a refusal)", len(days))
		}
	})
	t.Run("Antarctica/Troll", func(t *testing.T) {
		troll, err := time.LoadLocation("Antarctica/Troll")
		if err != nil {
			t.Skip("no tzdata:", err)
		}
		now := time.Date(2026, 11, 5, 12, 0, 0, 0, troll)
		days, err := dailyDays(t, troll, now, "2026-10-01", "2026-11-01")
		if err != nil {
			t.Fatalf("daily over October 2026 in Troll (31 days): %v", err)
		}
		if len(days) != 31 {
			t.Errorf("daily over October 2026 in Troll: %d days, want 31", len(days))
		}
	})
}
