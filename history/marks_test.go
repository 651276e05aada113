package history

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestMarked: the mark of a Record call is in the history once its
// readings are committed; a call that recorded nothing (every reading
// invalid) leaves none; retention keeps the newest keepMarks.
func TestMarked(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "h.db"), &Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	t0 := time.Now().Add(-time.Hour).Truncate(time.Second)
	good := []sensors.Reading{{Zone: "Bedroom", Measurement: sensors.Temperature, Value: 21, Time: t0, Source: "t"}}
	bad := []sensors.Reading{{Zone: "", Measurement: sensors.Temperature, Value: 21, Time: t0, Source: "t"}}
	if err := s.Record(ctx, sensors.Batch{Readings: good, Mark: "good"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Record(ctx, sensors.Batch{Readings: bad, Mark: "bad"}); err == nil {
		t.Fatal("an empty zone was taken")
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := s.Marked(ctx, []string{"good", "bad", "never"})
	if err != nil || !got["good"] || got["bad"] || got["never"] || len(got) != 1 {
		t.Fatalf("Marked = %v, %v; want only good", got, err)
	}

	// keepMarks+50 more calls: retention keeps the newest keepMarks.
	for i := range keepMarks + 50 {
		r := good[0]
		r.Time = t0.Add(time.Duration(i+1) * time.Second)
		if err := s.Record(ctx, sensors.Batch{Readings: []sensors.Reading{r}, Mark: fmt.Sprint("m", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.w.pruneMarks(ctx); err != nil {
		t.Fatal(err)
	}
	names := []string{"good", "m0", "m49", "m50", fmt.Sprint("m", keepMarks+49)}
	got, err = s.Marked(ctx, names)
	if err != nil || got["good"] || got["m0"] || got["m49"] || !got["m50"] || !got[names[4]] {
		t.Fatalf("after retention Marked(%v) = %v, %v; want m50 and the newest", names, got, err)
	}
	var n int
	if err := s.rdb.QueryRow("SELECT count(*) FROM marks").Scan(&n); err != nil || n != keepMarks {
		t.Errorf("marks kept: %d, %v; want %d", n, err, keepMarks)
	}
}
