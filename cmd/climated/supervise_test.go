package main

import (
	"context"
	"database/sql"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// notifySocket plays systemd's side of Type=notify: a datagram socket whose
// messages the test reads.
type notifySocket struct {
	conn *net.UnixConn
	msgs chan string
}

func listenNotify(t *testing.T, watchdog time.Duration) *notifySocket {
	t.Helper()
	path := filepath.Join(t.TempDir(), "notify")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	t.Setenv("NOTIFY_SOCKET", path)
	t.Setenv("WATCHDOG_USEC", strconv.FormatInt(watchdog.Microseconds(), 10))
	t.Setenv("WATCHDOG_PID", strconv.Itoa(os.Getpid()))
	n := &notifySocket{conn: conn, msgs: make(chan string, 1024)}
	go func() {
		buf := make([]byte, 4096)
		for {
			k, err := conn.Read(buf)
			if err != nil {
				close(n.msgs)
				return
			}
			n.msgs <- string(buf[:k])
		}
	}()
	return n
}

// next waits for a message containing want.
func (n *notifySocket) next(t *testing.T, want string, within time.Duration) {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case m := <-n.msgs:
			if strings.Contains(m, want) {
				return
			}
		case <-deadline:
			t.Fatalf("no %q within %s", want, within)
		}
	}
}

// quiet says whether no message containing what arrives for d.
func (n *notifySocket) quiet(what string, d time.Duration) bool {
	deadline := time.After(d)
	for {
		select {
		case m := <-n.msgs:
			if strings.Contains(m, what) {
				return false
			}
		case <-deadline:
			return true
		}
	}
}

// TestSystemdNotifyAndWatchdog: READY=1 once serving, WATCHDOG=1 while the
// main loops answer, none while the history writer is stuck behind a lock,
// pings again once it is free.
func TestSystemdNotifyAndWatchdog(t *testing.T) {
	ns := listenNotify(t, 300*time.Millisecond)
	cfg := demoConfig(t)
	h := startHub(t, cfg)
	ns.next(t, "READY=1", 5*time.Second)
	ns.next(t, "WATCHDOG=1", 5*time.Second)

	// Another process holds the write lock; the writer, with a reading to
	// write, waits for it (busy timeout 5 s) and stops answering.
	// With a busy timeout: the hub's writer may be in a compaction step.
	db, err := sql.Open("sqlite", "file:"+cfg.Database+"?_busy_timeout=10000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("UPDATE series SET source = source"); err != nil {
		t.Fatal(err)
	}
	if err := h.Hub.Record(context.Background(), sensors.Batch{Readings: []sensors.Reading{{Zone: "Indoor", Measurement: sensors.CO2, Value: 700, Time: time.Now(), Source: "test"}}}); err != nil {
		t.Fatal(err)
	}
	stopped := false
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		if ns.quiet("WATCHDOG=1", time.Second) {
			stopped = true
			break
		}
	}
	if !stopped {
		t.Fatal("the watchdog was fed while the history writer was stuck")
	}
	tx.Rollback()
	ns.next(t, "WATCHDOG=1", 10*time.Second)
}
