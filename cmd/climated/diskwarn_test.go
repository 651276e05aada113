package main

import (
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/climated/climated/internal/testutil"
)

// A hub started on a disk almost full says so at once: a warning in the
// log, /healthz 200 with the warning (the hub works), and the free space
// in /metrics.
func TestServeWarnsBeforeTheDiskFills(t *testing.T) {
	dir := testutil.MountSmall(t, "160m")
	testutil.TakeSpace(t, filepath.Join(dir, "filler"), 110<<20)
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
