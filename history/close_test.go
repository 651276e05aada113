package history

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestCloseTimeoutClosesDatabases: when the final flush cannot finish in
// time (another process holds the write lock), Close still closes the
// databases and says so.
func TestCloseTimeoutClosesDatabases(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	s, err := Open(context.Background(), path, &Options{BusyTimeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	other, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	other.SetMaxOpenConns(1)
	tx, err := other.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("UPDATE series SET source = source"); err != nil {
		t.Fatal(err)
	}
	now := time.Now().Truncate(time.Minute)
	if err := s.Record(context.Background(), sensors.Batch{Readings: every("Indoor", sensors.Temperature, now.Add(-time.Hour), 60, time.Minute, func(int) float64 { return 20 })}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	err = s.Close(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "databases closed") {
		t.Errorf("Close past its deadline: %v, want a deadline error that says the databases were closed", err)
	}
	if err := s.rdb.Ping(); err == nil || !strings.Contains(err.Error(), "database is closed") {
		t.Errorf("reader pool after Close: ping %v, want closed", err)
	}
	if err := s.wdb.PingContext(context.Background()); err == nil || !strings.Contains(err.Error(), "database is closed") {
		t.Errorf("writer pool after Close: ping %v, want closed", err)
	}
	tx.Rollback()
	select {
	case <-s.writerDone:
	case <-time.After(10 * time.Second):
		t.Fatal("the writer did not end after the lock was released")
	}
}
