package sources

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/station"
)

// TestAtk47StationAfterReloadOnFullDisk: while the history's disk is
// full the hub holds readings in memory (sensors.ErrDiskFull) and the
// MQTT ingest acknowledges on that; a station source already counting
// goes on too. But a station source built by a reload (or a restart)
// restores each rain gauge through Flush first, which answers
// ErrDiskFull, so every upload of the station is refused 503 until space
// is freed: the station's temperatures, wind and rain of that time are
// not kept, where the same uploads before the reload were.
func TestAtk47StationAfterReloadOnFullDisk(t *testing.T) {
	dir := testutil.MountSmall(t, "8m")
	db := filepath.Join(dir, "climate.db")
	ctx := context.Background()
	h, err := hub.Open(ctx, db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(ctx)
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
		resp, err := http.PostForm(srv.URL+"/data/report/", url.Values{"PASSKEY": {"K"}, "tempf": {"50"},
			"dateutc": {now.Add(-ago).UTC().Format("2006-01-02 15:04:05")}, "yearlyrainin": {strconv.FormatFloat(yearly, 'f', -1, 64)}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
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
	fill(t, filler)
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

func fill(t *testing.T, name string) {
	t.Helper()
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, size := range []int{64 << 10, 1} {
		for buf := make([]byte, size); ; {
			if _, err := f.Write(buf); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Fatal(err)
				}
				break
			}
		}
	}
}
