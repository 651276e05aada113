package history

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// The test binary doubles as an ingesting process: with HISTORY_CRASH_DB
// set it records batches into that database as fast as it can, and prints
// "committed N" once batch N is flushed, until it is killed. With
// HISTORY_LOCK_DB set it is a second hub (lockChild).
func TestMain(m *testing.M) {
	if path := os.Getenv("HISTORY_CRASH_DB"); path != "" {
		base, _ := strconv.ParseInt(os.Getenv("HISTORY_CRASH_BASE"), 10, 64)
		crashChild(path, base)
		return
	}
	if path := os.Getenv("HISTORY_LOCK_DB"); path != "" {
		lockChild(path)
		return
	}
	os.Exit(m.Run())
}

const (
	crashBatch  = 300 // readings per batch
	crashZones  = 6
	crashRounds = 50
)

func crashChild(path string, base int64) {
	ctx := context.Background()
	s, err := Open(ctx, path, &Options{FlushInterval: 5 * time.Millisecond, BatchSize: 1000})
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(1)
	}
	out := bufio.NewWriter(os.Stdout)
	for n := int64(0); ; n++ {
		rs := make([]sensors.Reading, crashBatch)
		for i := range rs {
			seq := n*crashBatch + int64(i)
			rs[i] = sensors.Reading{Zone: fmt.Sprintf("Z%d", seq%crashZones), Measurement: sensors.Temperature,
				Value: float64(seq%500) / 10, Time: time.Unix(base+seq/crashZones, 0), Source: "crash"}
		}
		if err := s.Record(ctx, sensors.Batch{Readings: rs, Mark: crashMark(base, n)}); err != nil {
			fmt.Println("record:", err)
			os.Exit(1)
		}
		// Every other batch waits for its commit; the rest stay queued, so
		// a kill often lands with a transaction half written.
		if n%2 == 1 {
			if err := s.Flush(ctx); err != nil {
				fmt.Println("flush:", err)
				os.Exit(1)
			}
			fmt.Fprintf(out, "committed %d\n", n)
			out.Flush()
		}
	}
}

// crashMark is the mark of batch n of the round that starts at base.
func crashMark(base, n int64) string { return fmt.Sprintf("crash %d %d", base, n) }

// TestCrashSafety kills an ingesting process with SIGKILL 50 times at
// random moments: every time the database passes integrity_check, every
// batch reported committed is there in full, and every batch (one Record
// call) is there in full with its mark or not at all and without it.
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("50 SIGKILLs take ~25 s: skipped with -short")
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	rng := rand.New(rand.NewPCG(1, 2))
	// Recent times, so that retention keeps them; each round has its own span.
	start := time.Now().Add(-7 * 24 * time.Hour).Unix()
	for round := range crashRounds {
		base := start + int64(round)*10_000
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "HISTORY_CRASH_DB="+path, "HISTORY_CRASH_BASE="+strconv.FormatInt(base, 10))
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(stdout)
		committed := int64(-1)
		if !lines.Scan() {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("round %d: the child said nothing", round)
		}
		killAt := time.Now().Add(time.Duration(5+rng.IntN(60)) * time.Millisecond)
		got := make(chan string, 1024)
		go func() {
			got <- lines.Text()
			for lines.Scan() {
				got <- lines.Text()
			}
			close(got)
		}()
		time.Sleep(time.Until(killAt))
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		for line := range got {
			n, ok := strings.CutPrefix(line, "committed ")
			if !ok {
				t.Fatalf("round %d: child: %s", round, line)
			}
			committed, _ = strconv.ParseInt(n, 10, 64)
		}
		if committed < 0 {
			t.Fatalf("round %d: nothing committed before the kill", round)
		}
		checkAfterCrash(t, path, round, base, committed)
	}
}

func checkAfterCrash(t *testing.T, path string, round int, base, committed int64) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var check string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("round %d: integrity_check = %q, %v", round, check, err)
	}
	// Batches 0…committed hold (committed+1)·crashBatch readings with times
	// base … base + last/crashZones.
	want := (committed + 1) * crashBatch
	last := base + (want-1)/crashZones
	var have int64
	if err := db.QueryRow("SELECT count(*) FROM "+rawView+" WHERE t >= ? AND t <= ?", base, last).Scan(&have); err != nil {
		t.Fatal(err)
	}
	if have < want {
		t.Fatalf("round %d: %d of the %d committed readings are there", round, have, want)
	}
	checkMarks(t, db, round, base)
}

// checkMarks: each batch of the round (crashBatch readings over the
// crashBatch/crashZones seconds of its own) has all of its readings and
// its mark, or none of them.
func checkMarks(t *testing.T, db *sql.DB, round int, base int64) {
	t.Helper()
	span := int64(crashBatch / crashZones)
	counts := map[int64]int64{}
	rows, err := db.Query("SELECT (t - ?) / ?, count(*) FROM "+rawView+" WHERE t >= ? AND t < ? GROUP BY 1", base, span, base, base+10_000)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n, c int64
		rows.Scan(&n, &c)
		counts[n] = c
	}
	rows.Close()
	marked := map[int64]bool{}
	for n := int64(0); n <= int64(len(counts))+1; n++ {
		var one int
		switch err := db.QueryRow("SELECT 1 FROM marks WHERE name = ?", crashMark(base, n)).Scan(&one); err {
		case nil:
			marked[n] = true
		case sql.ErrNoRows:
		default:
			t.Fatal(err)
		}
	}
	for n := int64(0); n <= int64(len(counts))+1; n++ {
		if c := counts[n]; marked[n] && c != crashBatch || !marked[n] && c != 0 {
			t.Fatalf("round %d: batch %d has %d of its %d readings, mark %v: want all with the mark or none without", round, n, c, crashBatch, marked[n])
		}
	}
}
