package main

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/climated/climated/internal/testutil"
)

// takeSpace makes name hold n bytes of the file system (tmpfs allocates
// them at once).
func takeSpace(t *testing.T, name string, n int64) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(0); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Fallocate(int(f.Fd()), 0, 0, n); err != nil {
		t.Fatal(err)
	}
}

// The disk watch on a real small file system: nothing said while there is
// room; below the limit one warning in the log, however often it looks,
// and on /healthz while it lasts; back above the limit but under twice it,
// still low (a disk hovering at the limit does not flood the log); with
// room again, one line saying so and no warning.
func TestDiskWatch(t *testing.T) {
	const mb = 1 << 20
	dir := testutil.MountSmall(t, "160m")
	var log bytes.Buffer
	d := newDiskWatch(filepath.Join(dir, "climated.db"), 64*mb, slog.New(slog.NewTextHandler(&log, nil)))
	filler := filepath.Join(dir, "filler")
	step := func(what string, taken int64, wantWarn bool, wantLog string) {
		t.Helper()
		if taken > 0 {
			takeSpace(t, filler, taken)
		} else {
			os.Remove(filler)
		}
		d.look()
		d.look()
		if w := d.Warnings(); (len(w) > 0) != wantWarn || wantWarn && !strings.Contains(w[0], dir) {
			t.Errorf("%s: warnings %q, want them %v", what, w, wantWarn)
		}
		if got := log.String(); !regexp.MustCompile(wantLog).MatchString(got) {
			t.Errorf("%s: log\n%s\nwant it to match %q", what, got, wantLog)
		}
		log.Reset()
	}
	step("room", 0, false, "^$")
	step("50 MB free", 110*mb, true, `^[^\n]*level=WARN msg="disk almost full" dir=\S+ free="\d+(\.\d)? MiB" total="160(\.0)? MiB" limit="64(\.0)? MiB" fix=[^\n]*\n$`)
	step("still 50 MB free", 110*mb, true, "^$")
	step("100 MB free", 60*mb, true, "^$")
	step("160 MB free", 0, false, `^[^\n]*level=INFO msg="disk space is back" [^\n]*\n$`)
}

// A hub started on a disk almost full says so at once: a warning in the
// log, /healthz 200 with the warning (the hub works), and the free space
// in /metrics.
func TestServeWarnsBeforeTheDiskFills(t *testing.T) {
	dir := testutil.MountSmall(t, "160m")
	takeSpace(t, filepath.Join(dir, "filler"), 110<<20)
	demoHistory(t, filepath.Join(dir, "climated.db"))
	p := startServed(t, "serve", "--listen", "127.0.0.1:0", "--db", filepath.Join(dir, "climated.db"))
	defer p.stop(t)
	if !strings.Contains(p.logged(), `msg="disk almost full"`) {
		t.Errorf("no warning in the log:\n%s", p.logged())
	}
	resp, err := http.Get(p.base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		Status   string
		Warnings []string
	}
	json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || body.Status != "ok" || len(body.Warnings) != 1 || !strings.Contains(body.Warnings[0], "free of 160") {
		t.Errorf("/healthz %d %+v, want 200, ok and the disk's warning", resp.StatusCode, body)
	}
	resp, err = http.Get(p.base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := regexp.MustCompile(`(?m)^climated_disk_free_bytes (\S+)$`).FindSubmatch(metrics)
	if m == nil {
		t.Fatalf("no climated_disk_free_bytes in /metrics")
	}
	if free, _ := strconv.ParseFloat(string(m[1]), 64); free <= 0 || free >= 64<<20 {
		t.Errorf("climated_disk_free_bytes %s, want between 0 and 64 MiB", m[1])
	}
}
