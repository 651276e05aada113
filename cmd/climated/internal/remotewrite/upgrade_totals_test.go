package remotewrite

import (
	"context"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// TestUpgradedFileDropsTotalsOfSeriesEmptiedFirst: a file of version 13
// (remote write's cursor and running totals kept, its trigger not yet
// made) is opened by climated serve, which empties series before remote
// write's part opens: it forgets the demo's readings (sources.ForgetDemo
// in firstSources), or a station claims a demo series, between the
// history's Migrate and the senders' (startRemoteWrite). Once the sender
// has opened its cursor no running total of an emptied series is left:
// the next source's counter counts from its own readings, as the history
// made sure (dropCounters) before the schema was kept in parts.
func TestUpgradedFileDropsTotalsOfSeriesEmptiedFirst(t *testing.T) {
	ctx := context.Background()
	for _, how := range []string{"forget", "claim"} {
		t.Run(how, func(t *testing.T) {
			file, db := testutil.LegacyHistory(t, "sqlite", 13)
			for _, q := range []string{
				"INSERT INTO series (id, zone, measurement, source) VALUES (1, 'Cabin', 'Rain', 'demo/Cabin')",
				"INSERT INTO remote_write (url, t, series, sent_at, sent, failed) VALUES ('http://store', 1, 1, 1, 5, 0)",
				"INSERT INTO remote_write_totals (url, series, total) VALUES ('http://store', 1, 40)",
			} {
				if _, err := db.Exec(q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			st, err := history.Open(ctx, file, nil) // serve: the history first
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close(ctx)
			at := time.Now().Add(-time.Hour).Truncate(time.Minute)
			record(t, st, sensors.Reading{Zone: "Cabin", Measurement: sensors.Rain, Value: 0.2, Time: at, Source: "demo/Cabin"})
			switch how {
			case "forget":
				if _, err := st.ForgetSource(ctx, sensors.SimulatedPrefix); err != nil {
					t.Fatal(err)
				}
			case "claim":
				record(t, st, sensors.Reading{Zone: "Cabin", Measurement: sensors.Rain, Value: 0.2, Time: at.Add(time.Minute), Source: "station/gw2000a"})
			}
			var resets int
			if err := db.QueryRow("SELECT resets FROM series WHERE id = 1").Scan(&resets); err != nil || resets == 0 {
				t.Fatalf("the series was not emptied: resets %d, %v", resets, err)
			}
			c, err := openCursor(ctx, file, "http://store", false) // then the sender
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			cur, _, err := c.load(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if total, ok := cur.totals[1]; ok {
				t.Errorf("the emptied series keeps its running total %d of the readings deleted: the next source's counter goes on from it", total)
			}
		})
	}
}
