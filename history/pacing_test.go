package history

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/climated/climated/sensors"
)

// fillDisk fills the file system of name down to the last byte: a write
// of 64 KiB fails while a few pages still fit.
func fillDisk(t *testing.T, name string) {
	t.Helper()
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, size := range []int{64 << 10, 4 << 10, 512, 1} {
		buf := make([]byte, size)
		for {
			if _, err := f.Write(buf); err != nil {
				break // ENOSPC
			}
		}
	}
}

// TestRetriesArePacedUnderAStorm: on a full disk with 5,000 readings
// waiting, a minute of 200 messages a second brings no write attempt of
// its own: the writer retries on its back-off schedule only, and writes everything once the disk has room again.
func TestRetriesArePacedUnderAStorm(t *testing.T) {
	dir := tmpfs(t, "2m")
	path, filler := filepath.Join(dir, "h.db"), filepath.Join(dir, "filler")
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		var attempts atomic.Int64
		s, err := Open(ctx, path, &Options{OnFlush: func(time.Duration, int, error) { attempts.Add(1) }})
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		if err := s.Record(ctx, sensors.Batch{Readings: every("Indoor", sensors.Temperature, now.Add(-time.Hour), 60, time.Minute, func(int) float64 { return 20 })}); err != nil {
			t.Fatal(err)
		}
		if err := s.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		fillDisk(t, filler)
		// More than BatchSize, and more than the room the WAL already
		// has (see faultRun), so the write fails.
		const backlog = 5_000
		if err := s.Record(ctx, sensors.Batch{Readings: every("Indoor", sensors.Humidity, now.Add(-backlog*time.Second), backlog, time.Second, func(i int) float64 { return 40 + float64(i%20) })}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if s.Health() == nil {
			t.Fatal("the disk is full, yet Health says ok")
		}
		// The watchdog's probe answers at once, without a write.
		t0, before := time.Now(), attempts.Load()
		if err := s.Ping(ctx); err != nil || time.Since(t0) != 0 || attempts.Load() != before {
			t.Errorf("Ping during the back-off: %v after %s, %d write attempts", err, time.Since(t0), attempts.Load()-before)
		}
		base := attempts.Load()
		// The MQTT ingest asks for a flush four times a second while its
		// acknowledgements wait: that must not retry any faster either.
		stormCtx, stormOver := context.WithCancel(ctx)
		flushes := make(chan int)
		go func() {
			n := 0
			for ; stormCtx.Err() == nil; n++ {
				if err := s.Flush(stormCtx); err == nil {
					t.Error("Flush on a full disk returned no error")
				}
				time.Sleep(250 * time.Millisecond)
			}
			flushes <- n
		}()
		const rate, seconds = 200, 60
		sent := 0
		for i := range rate * seconds {
			r := sensors.Reading{Zone: "Balcony", Measurement: sensors.Temperature, Value: 10, Time: now.Add(time.Duration(i) * time.Second / rate), Source: "storm"}
			if err := s.Record(ctx, sensors.Batch{Readings: []sensors.Reading{r}}); err != nil {
				t.Fatal(err)
			}
			sent++
			time.Sleep(time.Second / rate)
			if attempts.Load()-base > 50 {
				break // a storm: enough to tell
			}
		}
		stormOver()
		if n := <-flushes; n < 4 {
			t.Errorf("only %d flushes asked for during the storm", n)
		}
		// Back-off from FlushInterval, doubling: retries 1, 3, 7, 15 and
		// 31 s after the first failure, then every DefaultMaxRetryInterval.
		if got := attempts.Load() - base; got > 6 || got < 4 {
			t.Errorf("%d write attempts while %d messages (and flushes) arrived in %d s, want 4 to 6 (paced retries)", got, sent, seconds)
		}
		os.Remove(filler)
		time.Sleep(DefaultMaxRetryInterval)
		synctest.Wait()
		if err := s.Health(); err != nil {
			t.Errorf("Health once the disk has room again: %v", err)
		}
		if err := s.Close(ctx); err != nil {
			t.Fatal(err)
		}
		// Compaction merges the storm's readings of one second.
		if got, want := rawCount(t, path), 60+backlog+sent/rate; got < want {
			t.Errorf("%d readings on disk, want at least %d", got, want)
		}
	})
}

// TestHealthReportsAStuckWriter: a writer that hangs in a write says
// nothing by itself; Health turns to an error once the oldest waiting
// reading is older than FlushInterval + DefaultStuckAfter, and back once
// it is written.
func TestHealthReportsAStuckWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		release := make(chan struct{})
		var hang atomic.Bool
		// A hook that holds the writer goroutine stands in for a write
		// that hangs (an SD card that stops answering).
		s, err := Open(ctx, path, &Options{OnFlush: func(time.Duration, int, error) {
			if hang.Load() {
				<-release
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		hang.Store(true)
		if err := s.Record(ctx, sensors.Batch{Readings: []sensors.Reading{reading("Indoor", sensors.Temperature, 20, time.Now())}}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(DefaultFlushInterval + DefaultStuckAfter/2)
		synctest.Wait()
		if err := s.Health(); err != nil {
			t.Errorf("Health while the oldest reading waits %s: %v", DefaultFlushInterval+DefaultStuckAfter/2, err)
		}
		time.Sleep(DefaultStuckAfter)
		err = s.Health()
		if !errors.Is(err, ErrWriterStuck) || !strings.Contains(err.Error(), "1 readings waiting") {
			t.Errorf("Health with a reading waiting %s: %v, want ErrWriterStuck", DefaultFlushInterval+3*DefaultStuckAfter/2, err)
		}
		hang.Store(false)
		close(release)
		synctest.Wait()
		if err := s.Health(); err != nil {
			t.Errorf("Health once the writer moves again: %v", err)
		}
		if err := s.Close(ctx); err != nil {
			t.Fatal(err)
		}
	})
}
