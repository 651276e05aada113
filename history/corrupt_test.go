package history

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestCorruptDatabaseIsMovedAside: a database whose pages are damaged is
// renamed with a timestamp (never deleted), a fresh one takes its place,
// and the log says where the old one is.
func TestCorruptDatabaseIsMovedAside(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "h.db")
	s := openTest(t, path, nil)
	now := time.Now()
	if err := s.Record(context.Background(), sensors.Batch{Readings: every("Indoor", sensors.Temperature, now.Add(-time.Hour), 60, time.Minute, func(int) float64 { return 20 })}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Keep page 1 (the header), scribble over the rest.
	data, _ := os.ReadFile(path)
	for i := 4096; i < len(data); i++ {
		data[i] = byte(i * 7)
	}
	os.WriteFile(path, data, 0o600)

	var logs bytes.Buffer
	s2, err := Open(context.Background(), path, &Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatalf("open a damaged database: %v", err)
	}
	defer s2.Close(context.Background())
	matches, _ := filepath.Glob(path + ".corrupt-*")
	if len(matches) != 1 {
		t.Fatalf("moved-aside files: %v", matches)
	}
	if moved, _ := os.ReadFile(matches[0]); !bytes.Equal(moved, data) {
		t.Error("the damaged file was changed, not just moved")
	}
	if !strings.Contains(logs.String(), "moved_to="+matches[0]) {
		t.Errorf("the log does not say where the old database is:\n%s", logs.String())
	}
	if err := s2.Record(context.Background(), sensors.Batch{Readings: every("Indoor", sensors.Temperature, now, 1, time.Minute, func(int) float64 { return 21 })}); err != nil {
		t.Fatal(err)
	}
	if err := s2.Flush(context.Background()); err != nil {
		t.Fatalf("the fresh database does not take readings: %v", err)
	}
}
