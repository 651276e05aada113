package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/testutil"
)

// The broker of TestMQTTFullDiskLosesNothing keeps at most 100 messages
// for a hub that does not acknowledge (mosquitto's default is 1000; the
// same happens there, ten times later): at 40 messages a second it drops
// what arrives after 3 s of a hub holding back its acknowledgements.
const fullDiskBrokerLimits = "max_queued_messages 100\nmax_inflight_messages 20\n"

const (
	fullDiskRate = 40              // messages a second, as in the full-disk soak that found it
	fullDiskFor  = 6 * time.Second // the disk stays full
)

// TestMQTTFullDiskLosesNothing fills the database's file system while a
// device publishes at QoS 1 into an auto-zone subscription, right after
// the WAL was checkpointed to an empty file, so that every commit needs
// blocks the disk no longer has. A full-disk soak once lost 1,200 of 1,600 messages
// gone: the hub held back its acknowledgements while it could not
// commit, and again for up to 30 s after space came back (the writer's
// back-off), the broker stopped sending and dropped what its queue could
// not hold. Now the hub acknowledges once the history holds the readings
// in memory, and writes them within a second of space being freed.
// Every message published must be in the history once, after the disk
// frees and again after a SIGKILL and a restart.
func TestMQTTFullDiskLosesNothing(t *testing.T) {
	t.Parallel() // its own broker, disk and hub; mostly sleeps (the disk stays full 6 s)
	broker := startMosquittoWith(t, fullDiskBrokerLimits)
	state := testutil.MountSmall(t, "8m")
	dir := t.TempDir()
	db := filepath.Join(state, "climated.db")
	h, online := seqHub(t, broker, "climated/fulldisk", db, dir, "")
	base := h.base(t)

	_, stop := publishSequence(t, testutil.MQTTClient(t, broker, "fulldisk-device"), fullDiskRate, 16)
	time.Sleep(2 * time.Second)
	checkpointTruncate(t, db)
	filler := filepath.Join(state, "filler")
	testutil.FillUp(t, filler)
	time.Sleep(fullDiskFor)
	// While the disk is full, /healthz names it with what the disk has
	// now, not what the disk watch saw at its last look.
	if code, _, body := testutil.Do(t, base, testutil.Request{Method: "GET", Path: "/healthz"}); code != http.StatusServiceUnavailable || !strings.Contains(body, "(0 B free of") || strings.Contains(body, "MiB free of") {
		t.Errorf("/healthz on a full disk: %d %s", code, body)
	}
	os.Remove(filler)
	time.Sleep(3 * time.Second)
	n := float64(stop())

	store, err := history.OpenReadOnly(context.Background(), db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close(context.Background())
	waitRain := func(what string) {
		t.Helper()
		testutil.EventuallyWithin(20*time.Second, func() bool { return rainTotal(t, store) >= n })
		if got := rainTotal(t, store); got != n {
			t.Errorf("%s: rain %.0f mm for %.0f messages\n%s", what, got, n, h.grep("level=WARN", "level=ERROR", "again"))
		}
	}
	waitRain("after the disk freed")
	if code, _, body := testutil.Do(t, base, testutil.Request{Method: "GET", Path: "/healthz"}); code != http.StatusOK {
		t.Errorf("/healthz once space is back: %d %s", code, body)
	}
	h.stop(syscall.SIGKILL)
	h.start(online)
	waitRain("after a SIGKILL and a restart")
	h.stop(syscall.SIGTERM)
	if c := h.count("messages are acknowledged once their readings wait in memory"); c != 1 {
		t.Errorf("the log says %d times that acknowledgements no longer wait for the disk, want once", c)
	}
	t.Logf("published %.0f at %d/s, the disk full for %s after a WAL checkpointed to nothing; broker: %s", n, fullDiskRate, fullDiskFor,
		strings.ReplaceAll(strings.TrimSpace(fullDiskBrokerLimits), "\n", ", "))
}

// seqHub starts a hub that takes in seq/+ (CO2 = n, and 1 mm of rain a
// message) from broker into db, with its status under prefix, its
// configuration and logs in dir, and ingest lines added to its mqtt
// section; it returns the hub, running, and what tells it online.
func seqHub(t *testing.T, broker, prefix, db, dir, ingest string) (*hubProcess, chan struct{}) {
	t.Helper()
	cfg := filepath.Join(dir, "climated.yaml")
	// The last messages of a sequence (fewer than the ingest's batch of
	// 10) wait for their commit unacknowledged, up to commit_interval (a
	// minute by default), before a restart and again after it: the
	// broker delivers them again. The tests read the database within
	// 20 s, so they commit every 5 s.
	os.WriteFile(cfg, []byte(`listen: 127.0.0.1:0
database: `+db+`
commit_interval: 5s
mqtt:
  broker: `+broker+`
  prefix: `+prefix+`
  subscriptions:
    - topic: "seq/+"
      format: generic
      auto_zone: true
      fields: [{measurement: CO2, path: n}, {measurement: Rain, path: rain}]
`+ingest), 0o600)
	online := make(chan struct{}, 16)
	observer := testutil.MQTTClient(t, broker, prefix+"-observer")
	observer.Subscribe(prefix+"/status", 1, func(_ paho.Client, m paho.Message) {
		if string(m.Payload()) == "online" && !m.Retained() {
			online <- struct{}{}
		}
	}).WaitTimeout(5 * time.Second)
	h := &hubProcess{t: t, args: []string{"serve", "--config", cfg}, logDir: dir}
	h.start(online)
	return h, online
}

// publishSequence publishes {"n": N, "rain": 1} to seq/<N mod series> at
// QoS 1, rate messages a second, until stop, which returns how many the
// broker acknowledged.
func publishSequence(t *testing.T, device paho.Client, rate, series int) (published *atomic.Int64, stop func() int64) {
	published = new(atomic.Int64)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Second / time.Duration(rate))
		defer tick.Stop()
		for n := 0; ; n++ {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			tok := device.Publish(fmt.Sprintf("seq/%d", n%series), 1, false, fmt.Sprintf(`{"n":%d,"rain":1}`, n))
			if !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
				t.Errorf("publish %d: %v", n, tok.Error())
				return
			}
			published.Add(1)
		}
	}()
	return published, func() int64 { cancel(); <-done; return published.Load() }
}

// checkpointTruncate empties the WAL of the database at path, as a
// checkpoint that shrinks it does (and as the hub leaves it at a clean
// stop).
func checkpointTruncate(t *testing.T, path string) {
	t.Helper()
	db, err := history.OpenSQLite("file:" + path + "?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var busy, log, done int
	if err := db.QueryRow("PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &log, &done); err != nil || busy != 0 {
		t.Fatalf("checkpoint: %v (busy %d)", err, busy)
	}
	if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() != 0 {
		t.Fatalf("WAL after the checkpoint: %v", err)
	}
}

var apiURL = regexp.MustCompile(`api=(http://\S+)/api/climate`)

// base is the latest run's http://HOST:PORT, from its start-up log.
func (h *hubProcess) base(t *testing.T) string {
	t.Helper()
	var m []string
	if !testutil.Eventually(func() bool { m = apiURL.FindStringSubmatch(h.logs()); return m != nil }) {
		t.Fatalf("no api= URL in the log\n%s", h.logs())
	}
	return m[1]
}
