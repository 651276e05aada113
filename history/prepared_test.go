package history

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestPreparedReads: the readers' queries are prepared once each (by
// readers at once too) and answer as unprepared ones; past maxPrepared
// texts they still answer, unprepared, and closing the store closes the
// statements.
func TestPreparedReads(t *testing.T) {
	start := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	now := start.Add(36 * time.Hour)
	s := storeWith(t, time.UTC, now, every("Garden", sensors.Temperature, start, 30, time.Hour, func(i int) float64 { return float64(i) }))
	ctx := context.Background()
	for range 2 {
		days, err := s.Daily(ctx, "Garden", start, now)
		if err != nil || len(days) != 2 || days[1].Measurements[string(sensors.Temperature)].Max != 29 {
			t.Fatalf("days %+v, %v; want 2, the second's highest 29 °C", days, err)
		}
	}
	held := len(s.prepared.stmts)
	if held == 0 {
		t.Fatal("no query kept prepared")
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Go(func() {
			var v int
			if err := s.readRow(ctx, "SELECT ? * 2", i).Scan(&v); err != nil || v != 2*i {
				errs <- fmt.Errorf("reader %d: %d, %v", i, v, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := len(s.prepared.stmts); n != held+1 {
		t.Errorf("%d statements after 8 readers ran one new query at once; want %d", n, held+1)
	}
	for i := range maxPrepared + 5 {
		var v int
		if err := s.readRow(ctx, fmt.Sprintf("SELECT %d + ?", i), 1).Scan(&v); err != nil || v != i+1 {
			t.Fatalf("SELECT %d + 1: %d, %v", i, v, err)
		}
	}
	if n := len(s.prepared.stmts); n != maxPrepared {
		t.Errorf("%d statements kept; want at most %d", n, maxPrepared)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if s.prepared.stmts != nil {
		t.Errorf("%d statements left after Close", len(s.prepared.stmts))
	}
}
