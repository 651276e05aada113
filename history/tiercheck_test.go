package history

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// The expected content of the tiers, computed from the readings recorded:
// what each series holds at each second, as stored (the recent table adds
// amounts of one second and keeps the last gauge).

type storedKey struct {
	zone string
	m    sensors.Measurement
}

type stored map[storedKey]map[int64]int64

func expectStored(rs []sensors.Reading) stored {
	out := stored{}
	valid, _ := Prepare(rs)
	for _, r := range valid {
		k := storedKey{r.Zone, r.Measurement}
		if out[k] == nil {
			out[k] = map[int64]int64{}
		}
		v := encode(r.Measurement, r.Value)
		if info, _ := sensors.Lookup(r.Measurement); info.Kind == sensors.Amount {
			v += out[k][r.Time.Unix()]
		}
		out[k][r.Time.Unix()] = v
	}
	return out
}

// buckets aggregates a series' stored values by bucket of width seconds,
// as the rollups hold them.
func buckets(m sensors.Measurement, vs map[int64]int64, width int64) map[int64]bucket {
	out := map[int64]bucket{}
	for t, v := range vs {
		f := decode(m, float64(v))
		b, ok := out[t-t%width]
		if !ok {
			b = bucket{low: f, high: f}
		}
		b.n++
		b.total += f
		b.low, b.high = min(b.low, f), max(b.high, f)
		out[t-t%width] = b
	}
	return out
}

func seriesID(t *testing.T, s *Store, k storedKey) int64 {
	t.Helper()
	var id int64
	if err := s.rdb.QueryRow("SELECT id FROM series WHERE zone = ? AND measurement = ?", k.zone, string(k.m)).Scan(&id); err != nil {
		t.Fatalf("series %s/%s: %v", k.zone, k.m, err)
	}
	return id
}

// checkTiers checks, once compaction has caught up, that raw holds every
// reading of rs once, as stored, and that every bucket of both rollups
// holds exactly the count, total, minimum and maximum of raw's readings
// in it.
func checkTiers(t *testing.T, s *Store, rs []sensors.Reading) {
	t.Helper()
	for k, want := range expectStored(rs) {
		id := seriesID(t, s, k)
		got := map[int64]int64{}
		scanPairs(t, s, "SELECT t, v FROM raw WHERE series = ?", id, func(ts, v int64) { got[ts] = v })
		if len(got) != len(want) {
			t.Errorf("%s/%s: raw holds %d readings, want %d", k.zone, k.m, len(got), len(want))
		}
		for ts, v := range want {
			if got[ts] != v {
				t.Errorf("%s/%s at %d: raw holds %d, want %d", k.zone, k.m, ts, got[ts], v)
				break
			}
		}
		for _, tier := range rollupTiers {
			checkRollup(t, s, k, id, tier.table, buckets(k.m, want, int64(tier.width/time.Second)))
		}
	}
}

func checkRollup(t *testing.T, s *Store, k storedKey, id int64, table string, want map[int64]bucket) {
	t.Helper()
	rows, err := s.rdb.Query(fmt.Sprintf("SELECT t, n, total, lo, hi FROM %s WHERE series = ?", table), id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for ; rows.Next(); n++ {
		var ts int64
		var b bucket
		if err := rows.Scan(&ts, &b.n, &b.total, &b.low, &b.high); err != nil {
			t.Fatal(err)
		}
		w := want[ts]
		if b.n != w.n || math.Abs(b.total-w.total) > 1e-9*max(1, math.Abs(w.total)) || b.low != w.low || b.high != w.high {
			t.Fatalf("%s/%s: %s bucket %s holds %+v, raw has %+v", k.zone, k.m, table, time.Unix(ts, 0).UTC(), b, w)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n != len(want) {
		t.Errorf("%s/%s: %s holds %d buckets, raw fills %d", k.zone, k.m, table, n, len(want))
	}
}

func scanPairs(t *testing.T, s *Store, query string, id int64, f func(a, b int64)) {
	t.Helper()
	rows, err := s.rdb.Query(query, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var a, b int64
		if err := rows.Scan(&a, &b); err != nil {
			t.Fatal(err)
		}
		f(a, b)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}

// checkCounts checks that every tier, as queries read it (a rollup with
// the readings still in recent), counts each reading of rs once and
// totals them, whatever compaction has moved so far.
func checkCounts(t *testing.T, s *Store, rs []sensors.Reading, when string) {
	t.Helper()
	for k, want := range expectStored(rs) {
		id := seriesID(t, s, k)
		var total float64
		for _, v := range want {
			total += decode(k.m, float64(v))
		}
		for _, tier := range tierSQLs {
			tr := tier.of(k.m)
			var n int
			var sum float64
			q := fmt.Sprintf("SELECT %s, %s FROM %s WHERE series = ?", tr.count, tr.sum, tr.table)
			if err := s.rdb.QueryRow(q, id).Scan(&n, &sum); err != nil {
				t.Fatal(err)
			}
			if sum /= tr.div(k.m); n != len(want) || math.Abs(sum-total) > 1e-6*max(1, math.Abs(total)) {
				t.Errorf("%s: %s/%s read from %s: %d readings totalling %g, want %d totalling %g", when, k.zone, k.m, tier.name, n, sum, len(want), total)
			}
		}
	}
}
