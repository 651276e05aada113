package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/metrics"
	"github.com/climated/climated/cmd/climated/internal/remotewrite"
	"github.com/climated/climated/history"
	"github.com/climated/climated/sensors"
)

// weekSeries is a full house: six zones of ten measurements each.
const weekZones, weekMeasurements = 6, 10

// weekOfHouse fills the history at path with a week of the house at a
// reading a minute, compacted as a running hub would have it, and
// returns how many readings.
func weekOfHouse(t *testing.T, path string, end time.Time) int {
	t.Helper()
	ctx := context.Background()
	st, err := history.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(ctx)
	var ms []sensors.Info
	for _, info := range sensors.Catalogue() {
		if _, ok := metrics.FamilyOf(info.Name); ok && len(ms) < weekMeasurements {
			ms = append(ms, info)
		}
	}
	start, n := end.Add(-7*24*time.Hour), 0
	for day := range 7 {
		var rs []sensors.Reading
		for m := range 24 * 60 {
			at := start.Add(time.Duration(day*24*60+m) * time.Minute)
			for z := range weekZones {
				for _, info := range ms {
					rs = append(rs, sensors.Reading{Zone: fmt.Sprintf("Zone %d", z), Measurement: info.Name, Value: (info.Min + info.Max) / 2, Time: at, Source: "test/week"})
				}
			}
		}
		if err := st.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
			t.Fatal(err)
		}
		if err := st.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		n += len(rs)
	}
	if err := st.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestRemoteWriteWeekOffline: a store that missed a week of a full house
// (60 series at a reading a minute) gets all of it, once, while the hub's
// heap stays within a bound; the time it took and the heap's high water
// are logged (docs/development.md has the figures).
// CLIMATED_RW_RATE sets max_samples_per_second (default here 200000, to
// measure the sender rather than its limit).
func TestRemoteWriteWeekOffline(t *testing.T) {
	if testing.Short() {
		t.Skip("a week of readings: not in -short")
	}
	t.Parallel()
	vm := startVM(t, "", "")
	cfg := rwConfig(t, remotewrite.Config{URL: vm.url() + "/api/v1/write"})
	t0 := time.Now()
	n := weekOfHouse(t, cfg.Database, time.Now().Add(-time.Hour))
	t.Logf("a week of %d readings written in %s", n, time.Since(t0).Round(time.Millisecond))
	cfg.RemoteWrite[0].Backfill = 8 * 24 * time.Hour
	cfg.RemoteWrite[0].MaxRate = 200_000
	if r, err := strconv.Atoi(os.Getenv("CLIMATED_RW_RATE")); err == nil {
		cfg.RemoteWrite[0].MaxRate = r
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var high atomic.Uint64
	stop := make(chan struct{})
	go func() {
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			if m.HeapInuse > high.Load() {
				high.Store(m.HeapInuse)
			}
		}
	}()
	t1 := time.Now()
	h := startHub(t, cfg)
	for deadline := time.Now().Add(10 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		got := waitRW(t, h, "some progress", func(rwHealth) bool { return true })
		if s := got.RemoteWrite[0]; s.State == remotewrite.StateUpToDate && s.Sent >= int64(n) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not caught up within 10 minutes: %+v", got)
		}
	}
	took := time.Since(t1)
	close(stop)
	grew := int64(high.Load()) - int64(before.HeapInuse)
	t.Logf("caught up with %d samples in %s (%.0f samples/s, max_samples_per_second %d); heap in use %.1f MB before, %.1f MB at most (+%.1f MB)",
		n, took.Round(time.Millisecond), float64(n)/took.Seconds(), cfg.RemoteWrite[0].MaxRate,
		float64(before.HeapInuse)/1e6, float64(high.Load())/1e6, float64(grew)/1e6)
	if grew > 64<<20 {
		t.Errorf("the heap grew by %.1f MB while catching up: want one batch's worth, far under 64 MB", float64(grew)/1e6)
	}
	var samples, series int
	for _, s := range vm.export(`{source="test/week"}`) {
		series++
		samples += len(s.Timestamps)
		for i := 1; i < len(s.Timestamps); i++ {
			if s.Timestamps[i] != s.Timestamps[i-1]+60_000 {
				t.Fatalf("%v: samples at %d then %d: a gap or one twice", s.Metric, s.Timestamps[i-1], s.Timestamps[i])
			}
		}
	}
	if series != weekZones*weekMeasurements || samples != n {
		t.Errorf("the store has %d series and %d samples, want %d and %d", series, samples, weekZones*weekMeasurements, n)
	}
}
