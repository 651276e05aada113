package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// The broker of TestMQTTRestartsLoseNothing, with the limits that bound
// what it keeps for a hub that is away, at their defaults: beyond 1000
// queued messages per session mosquitto drops what arrives (the test stays
// far below: about 30 messages per restart), and it sends at most 20
// unacknowledged messages at a time.
const restartBrokerLimits = "max_queued_messages 1000\nmax_inflight_messages 20\n"

const (
	seqRate   = 30 // messages per second, as in the issue
	seqSeries = 256
	restarts  = 10
)

// TestMQTTRestartsLoseNothing runs the real hub against mosquitto while a
// device publishes a numbered sequence at QoS 1, 30 messages a second,
// and restarts the hub 10 times, with SIGKILL and SIGTERM in turn. Every
// number must be in the history once: the persistent session queues what
// arrives while the hub is down, messages are acknowledged only once
// committed, and the session journal keeps redeliveries from being
// recorded twice.
//
// Number n is CO2 = n in zone seq/<n mod 256> and 1 mm of rain. Every
// message must be recorded once: each zone's rain total must equal the
// messages published to it. Each number must be there too, except where a
// backlog put two numbers of one zone into one second (queued messages are
// stamped when they arrive, and the history keeps one value per series and
// second: the later replaces the earlier, as for any device): each zone
// gets a message every 8.5 s, so that happens only when a restart takes
// longer (a hub that took 9 s to start under -race on a loaded machine);
// those are counted apart and must have a later number of their zone.
func TestMQTTRestartsLoseNothing(t *testing.T) {
	t.Parallel() // its own broker and hub; mostly waits between restarts
	broker := startMosquitto(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "climated.db")
	h, online := seqHub(t, broker, "climated/restarts", db, dir, "  ingest: {max_auto_zones: 300}\n")
	_, stopPublishing := publishSequence(t, testutil.MQTTClient(t, broker, "seq-device"), seqRate, seqSeries)

	kills := map[syscall.Signal]int{}
	for i := range restarts {
		time.Sleep(300*time.Millisecond + time.Duration(i)*70*time.Millisecond)
		sig := syscall.SIGKILL
		if i%2 == 1 {
			sig = syscall.SIGTERM
		}
		h.stop(sig)
		kills[sig]++
		h.start(online)
	}
	time.Sleep(500 * time.Millisecond)
	n := int(stopPublishing())

	// The last hub takes in the rest; then it stops and the file is read.
	store, err := history.OpenReadOnly(context.Background(), db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close(context.Background())
	testutil.EventuallyWithin(20*time.Second, func() bool { return rainTotal(t, store) >= float64(n) })
	h.stop(syscall.SIGTERM)

	seen := map[int]int{}
	rows := 0
	for _, r := range export(t, store, sensors.CO2) {
		v := int(r.Value)
		if r.Zone != fmt.Sprintf("seq/%d", v%seqSeries) {
			t.Errorf("number %d in zone %s", v, r.Zone)
		}
		seen[v]++
		rows++
	}
	// Per zone: the rain counts the messages recorded.
	perZone := map[string]float64{}
	for _, r := range export(t, store, sensors.Rain) {
		perZone[r.Zone] += r.Value
	}
	want := map[string]float64{}
	latest := map[int]int{} // zone index → its highest number stored
	for v := range seen {
		latest[v%seqSeries] = max(latest[v%seqSeries], v)
	}
	var lost, replaced []int
	for i := range n {
		want[fmt.Sprintf("seq/%d", i%seqSeries)]++
		switch {
		case seen[i] > 0:
		case latest[i%seqSeries] > i:
			replaced = append(replaced, i) // a later number of its zone took its second
		default:
			lost = append(lost, i)
		}
	}
	for z, w := range want {
		if perZone[z] != w {
			t.Errorf("zone %s: rain %.0f mm for %.0f messages", z, perZone[z], w)
		}
	}
	if len(replaced) > 0 {
		t.Logf("%d numbers replaced by a later number of their zone in the same second (a backlog after a slow restart): %v", len(replaced), head(replaced, 20))
	}
	duplicated := rows - len(seen)
	rain := rainTotal(t, store)
	t.Logf("published %d at %d/s through %d restarts (%d SIGKILL, %d SIGTERM): %d stored once, %d lost, %d duplicated; rain total %.0f mm for %d messages; redeliveries of recorded messages dropped (DEBUG lines): %d; broker: %s",
		n, seqRate, restarts, kills[syscall.SIGKILL], kills[syscall.SIGTERM], len(seen), len(lost), duplicated, rain, n,
		h.count("delivered again, already recorded"), strings.ReplaceAll(strings.TrimSpace(restartBrokerLimits), "\n", ", "))
	// The session (client id and journal) lives beside the database.
	if b, err := os.ReadFile(db + ".mqtt"); err != nil || !bytes.HasPrefix(b, []byte("climated mqtt session 1 climated-")) {
		t.Errorf("session file beside the database: %v %.80q", err, b)
	}
	if len(lost) > 0 || duplicated > 0 || rain != float64(n) {
		t.Errorf("lost %d %v, duplicated %d, rain %.0f mm for %d messages\n%s", len(lost), head(lost, 20), duplicated, rain, n, h.logs())
		// What the history has of the first lost numbers' zones, and every
		// run's warnings, to tell where they went.
		for _, v := range head(lost, 3) {
			zone := fmt.Sprintf("seq/%d", v%seqSeries)
			for _, m := range []sensors.Measurement{sensors.CO2, sensors.Rain} {
				var got []string
				for _, r := range export(t, store, m) {
					if r.Zone == zone {
						got = append(got, fmt.Sprintf("%s=%g", r.Time, r.Value))
					}
				}
				t.Logf("number %d: %s %s: %v", v, zone, m, got)
			}
		}
		t.Logf("warnings of every run:\n%s", h.grep("level=WARN", "level=ERROR"))
	}
}

// grep returns the lines of every run's log that contain one of ss.
func (h *hubProcess) grep(ss ...string) string {
	var out []string
	for i := 1; i <= h.runs; i++ {
		b, _ := os.ReadFile(filepath.Join(h.logDir, fmt.Sprintf("run%02d.log", i)))
		for _, l := range strings.Split(string(b), "\n") {
			for _, s := range ss {
				if strings.Contains(l, s) {
					out = append(out, fmt.Sprintf("run %d: %s", i, l))
					break
				}
			}
		}
	}
	return strings.Join(out, "\n")
}

// hubProcess is climated serve run again and again on one configuration.
type hubProcess struct {
	t      *testing.T
	args   []string
	logDir string
	runs   int
	cmd    *exec.Cmd
	exited chan error
}

// start runs the hub and waits until it says online on the broker.
func (h *hubProcess) start(online <-chan struct{}) {
	h.t.Helper()
	for len(online) > 0 {
		<-online // from an earlier run
	}
	h.runs++
	logf, err := os.Create(filepath.Join(h.logDir, fmt.Sprintf("run%02d.log", h.runs)))
	if err != nil {
		h.t.Fatal(err)
	}
	h.cmd = climated(h.args...)
	h.cmd.Stderr = logf
	if err := h.cmd.Start(); err != nil {
		h.t.Fatal(err)
	}
	logf.Close()
	h.exited = make(chan error, 1)
	go func(c *exec.Cmd) { h.exited <- c.Wait() }(h.cmd)
	h.t.Cleanup(func() { h.cmd.Process.Kill() })
	select {
	case <-online:
	case err := <-h.exited:
		h.t.Fatalf("hub exited at start: %v\n%s", err, h.logs())
	case <-time.After(15 * time.Second):
		h.t.Fatalf("hub never said online\n%s", h.logs())
	}
}

func (h *hubProcess) stop(sig syscall.Signal) {
	h.t.Helper()
	h.cmd.Process.Signal(sig)
	select {
	case err := <-h.exited:
		if sig == syscall.SIGTERM && err != nil {
			h.t.Errorf("exit after SIGTERM: %v\n%s", err, h.logs())
		}
	case <-time.After(15 * time.Second):
		h.t.Fatalf("no exit within 15 s of %v", sig)
	}
}

// logs is the end of the latest run's log, for a failure's message.
func (h *hubProcess) logs() string {
	b, _ := os.ReadFile(filepath.Join(h.logDir, fmt.Sprintf("run%02d.log", h.runs)))
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// count counts the log lines of every run that contain s.
func (h *hubProcess) count(s string) int {
	n := 0
	for i := 1; i <= h.runs; i++ {
		b, _ := os.ReadFile(filepath.Join(h.logDir, fmt.Sprintf("run%02d.log", i)))
		n += bytes.Count(b, []byte(s))
	}
	return n
}

type exportRow struct {
	Time  string  `json:"time"`
	Zone  string  `json:"zone"`
	Value float64 `json:"value"`
}

func export(t *testing.T, s *history.Store, m sensors.Measurement) []exportRow {
	t.Helper()
	var buf bytes.Buffer
	if _, err := s.Export(context.Background(), &buf, history.Export{Measurement: m, Format: "json"}); err != nil {
		t.Fatal(err)
	}
	var rows []exportRow
	if err := json.Unmarshal(buf.Bytes(), &rows); err != nil {
		t.Fatalf("export: %v", err)
	}
	return rows
}

func rainTotal(t *testing.T, s *history.Store) float64 {
	var sum float64
	for _, r := range export(t, s, sensors.Rain) {
		sum += r.Value
	}
	return sum
}

func head(xs []int, n int) []int { return xs[:min(n, len(xs))] }

// startMosquitto runs Debian's mosquitto on a free loopback port until the
// test ends and returns its URL.
func startMosquitto(t *testing.T) string {
	t.Helper()
	return startMosquittoWith(t, restartBrokerLimits)
}

// startMosquittoWith starts mosquitto with limits, lines of its
// configuration, and returns its URL.
func startMosquittoWith(t *testing.T, limits string) string {
	t.Helper()
	m := testutil.NewMosquitto(t, limits)
	m.Start()
	return m.URL()
}
