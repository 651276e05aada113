package main

import (
	"io"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/climated/climated/internal/testutil"
)

// TestWeewxZoneNameNotUTF8: --zone takes the zone's name as the shell
// gives it, and a shell in Latin-1 (or a script) gives "K\xfcche" for
// Küche. The import must refuse a name the hub cannot carry, as the MQTT
// mappings do (not UTF-8, control characters): once imported, every
// scrape of the hub's /metrics fails (500, a stack trace for a body),
// each of its metrics lost, because no Prometheus label value may be
// other than UTF-8.
func TestWeewxZoneNameNotUTF8(t *testing.T) {
	cfg := testConfig(t)
	file := filepath.Join(testutil.Root(t), "testdata", "weewx", "metricwx-wview.sdb")
	_, _, code := runCLI(t, "import", "--db", cfg.Database, "--from", "weewx", "--zone", "outdoor=K\xfcche", file)
	if code != 0 {
		return // refused
	}
	h := startHub(t, cfg)
	resp, err := http.Get("http://" + h.Addr.String() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("the import took the zone \"K\\xfcche\", and the hub's /metrics now answers %d: %.300s", resp.StatusCode, b)
	}
}
