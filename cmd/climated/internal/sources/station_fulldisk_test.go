package sources

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/station"
)

// TestStationAfterReloadOnFullDisk: while the history's disk is full
// the hub holds readings in memory (sensors.ErrDiskFull), and a station
// source built by a reload (or a restart) takes uploads as the one
// before it did: an upload is answered 200 before the reload and after
// it, though restoring the rain gauge finds the history's Flush failing
// on the full disk, and counts the rain once: from the gauge's state the
// hub holds in memory, not from the older one committed.
func TestStationAfterReloadOnFullDisk(t *testing.T) {
	dir := testutil.MountSmall(t, "8m")
	db := filepath.Join(dir, "climate.db")
	ctx := context.Background()
	a := newRainHub(t, dir)
	h := a.h
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg := station.Config{Zones: map[string]string{"outdoor": "Garden"}}
	serve := func() (*station.Source, *httptest.Server) {
		set := &Set{}
		addStation(set, cfg, Deps{Hub: h, Log: log})
		srv := httptest.NewServer(set.Station.Handler())
		t.Cleanup(srv.Close)
		return set.Station, srv
	}
	now := time.Now()
	up := func(srv *httptest.Server, ago time.Duration, yearly float64) int {
		return postUpload(t, srv.URL, rainUpload(now.Add(-ago), yearly))
	}
	old, srv := serve()
	if code := up(srv, 5*time.Minute, 10); code != 200 {
		t.Fatalf("first upload: %d", code)
	}
	if err := h.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	checkpoint(t, db)
	filler := filepath.Join(dir, "filler")
	testutil.FillUp(t, filler)
	defer os.Remove(filler)
	before := up(srv, 4*time.Minute, 10.1)
	if err := h.Flush(ctx); !errors.Is(err, sensors.ErrDiskFull) {
		t.Fatalf("Flush on the full disk: %v; want ErrDiskFull", err)
	}
	old.Close() // a reload
	_, srv = serve()
	after := up(srv, 3*time.Minute, 10.2)
	if before != 200 || after != 200 {
		t.Errorf("on the full disk: an upload %d before the reload, %d after; want 200 both (the hub holds readings in memory)", before, after)
	}
	// 0.1 in before the reload and 0.1 in after it: the gauge restored
	// from the state waiting in memory, not the older one committed.
	if got, want := a.total(), 5.08; math.Abs(got-want) > 1e-6 {
		t.Errorf("rain recorded %.2f mm, want %.2f", got, want)
	}
}

func checkpoint(t *testing.T, path string) {
	t.Helper()
	db, err := history.OpenSQLite("file:" + path + "?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var busy, n, done int
	if err := db.QueryRow("PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &n, &done); err != nil || busy != 0 {
		t.Fatalf("checkpoint: %v (busy %d)", err, busy)
	}
}
