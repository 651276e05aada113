package ingest

import (
	"bytes"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt/internal/clienttest"
	"github.com/climated/climated/sensors"
)

// The corpus of upstream payloads (testdata/corpus), published through a
// real mosquitto into a running ingest that records into a real SQLite
// history: after each message the get_climate structure holds what a user
// expects. A second pass, on a broker and history of its own, publishes
// every payload truncated and garbled: nothing is stored, and the log
// names the topic, the device where the payload gives it, and an excerpt.
func TestCorpusThroughMosquitto(t *testing.T) {
	ms := loadSubscriptions(t, filepath.Join("testdata", "corpus", "config.yaml"))
	var all []corpusCase
	for _, p := range append(corpusProjects[:len(corpusProjects):len(corpusProjects)], corpusOwnPrefix...) {
		all = append(all, loadCorpus(t, p)...)
	}
	if len(all) < 60 {
		t.Errorf("the corpus has %d payloads, want at least 60", len(all))
	}
	t.Run("as published", func(t *testing.T) {
		h := startCorpusHub(t, ms)
		for _, c := range all {
			t.Run(c.Format+"/"+c.Name, func(t *testing.T) {
				before := len(h.in.Zones())
				h.publish(t, c.Topic, []byte(c.Payload), c.Retained)
				h.check(t, c)
				if after := h.in.Zones(); c.NoZone && len(after) != before {
					t.Errorf("a zone was made: %v (%s)", after, c.Note)
				}
			})
		}
	})
	t.Run("truncated and garbled", func(t *testing.T) {
		h := startCorpusHub(t, ms)
		n := 0
		for _, c := range all {
			if c.SkipBad || c.Ignored {
				continue
			}
			for _, bad := range spoil(c.Payload) {
				n++
				h.publish(t, c.Topic, bad, false)
				// The counters move just before the line is written.
				if !testutil.Eventually(func() bool { return h.logged(c.Topic, bad) }) {
					t.Errorf("%s/%s: no warning names topic %s and the payload %q:\n%s", c.Format, c.Name, c.Topic, bad, h.log.String())
				}
			}
		}
		if z := h.store.Snapshot().Climate; len(z) != 0 {
			t.Errorf("spoilt payloads were stored: %v", z)
		}
		if st := h.in.Stats(); st.Readings != 0 || st.BadPayload+st.BadValues == 0 {
			t.Errorf("stats %+v after %d spoilt payloads", st, n)
		}
	})
}

// loadSubscriptions reads the subscriptions of a configuration file.
func loadSubscriptions(t testing.TB, path string) []Mapping {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Subscriptions []Mapping `yaml:"subscriptions"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&file); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if err := ValidateMappings(file.Subscriptions); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return file.Subscriptions
}

// corpusHub is a running ingest on its own mosquitto, recording into a history.
type corpusHub struct {
	in    *Ingest
	store *storeSink
	log   *testutil.Buffer
	// publishRaw sends as a device does.
	publishRaw func(t *testing.T, topic string, payload []byte, retained bool)
	sessions   func() uint64 // the hub's connections so far
}

func startCorpusHub(t *testing.T, ms []Mapping) *corpusHub {
	t.Helper()
	m := testutil.NewMosquitto(t)
	m.Start()
	h := &corpusHub{store: openStore(t), log: &testutil.Buffer{}}
	opts := clienttest.FastOptions(m.URL(), "climated/corpus")
	opts.KeepAlive = 30 * time.Second // no reconnection on a loaded machine
	clientLog := &testutil.Buffer{}
	opts.Logger = slog.New(slog.NewTextHandler(clientLog, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := clienttest.New(t, opts)
	// One second per message, so that no two rain amounts share a second
	// (the history adds those up).
	var tick atomic.Int64
	start := time.Now().Add(-10 * time.Minute).Truncate(time.Second)
	var err error
	h.in, err = New(c, ms, &Options{
		Altitude: corpusAltitude,
		// Every device of the corpus is a zone of its own: more than the
		// default bound.
		MaxAutoZones: 4 * DefaultMaxAutoZones,
		LogInterval:  time.Nanosecond, // every line, to check each
		Logger:       slog.New(slog.NewTextHandler(h.log, &slog.HandlerOptions{Level: slog.LevelInfo})),
		Now:          func() time.Time { return start.Add(time.Duration(tick.Add(1)) * time.Second) },
		// Each message is checked in the history before the next is
		// published: its commit need not wait for others (ackDelay).
		CommitWait: time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	h.sessions = c.Sessions
	clienttest.Run(t, c)
	// Without Flush: each reading is acknowledged once recorded rather than
	// batched for up to ackDelay, which made this test wait 0.2 s a
	// message; acknowledging after the commit is TestMosquittoAckAfterFlush's.
	runIngest(t, h.in, struct{ sensors.Sink }{h.store})
	// Subscribed once the broker acknowledged every filter.
	testutil.WaitFor(t, "the subscriptions", func() bool {
		for _, m := range ms {
			if !strings.Contains(clientLog.String(), `msg="mqtt: subscribed" topic=`+quoteIfNeeded(m.Topic)+" ") {
				return false
			}
		}
		return true
	})
	dev := testutil.MQTTClient(t, m.URL(), "")
	h.publishRaw = func(t *testing.T, topic string, payload []byte, retained bool) {
		t.Helper()
		if tok := dev.Publish(topic, 1, retained, payload); !tok.WaitTimeout(testutil.Patience) || tok.Error() != nil {
			t.Fatalf("publish %s: %v", topic, tok.Error())
		}
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the hub's log:\n%s", h.log.String())
		}
	})
	return h
}

// publish sends one message and waits until the ingest has dealt with it.
func (h *corpusHub) publish(t *testing.T, topic string, payload []byte, retained bool) {
	t.Helper()
	processed := func() uint64 {
		st := h.in.Stats()
		return st.Oversized + st.QueueFull + st.Ignored + st.BadPayload + st.NoZone + st.Replayed + st.Decoded
	}
	base := processed()
	for attempt := 0; ; attempt++ {
		sessions := h.sessions()
		h.publishRaw(t, topic, payload, retained)
		switch {
		case testutil.Eventually(func() bool { return processed() > base }):
			return
		case h.sessions() != sessions && attempt < 2:
			// The hub reconnected meanwhile (a keep-alive missed on a
			// loaded machine): its clean session lost the message.
			t.Logf("%s: the hub reconnected; publishing again", topic)
		default:
			t.Fatalf("%s: the message was not processed (stats %+v)", topic, h.in.Stats())
		}
	}
}

// check compares the structure with what c expects.
func (h *corpusHub) check(t *testing.T, c corpusCase) {
	t.Helper()
	zone := func(name string) map[string]any { return h.store.Snapshot().Climate[name] }
	expect := func(name string, want map[string]float64) {
		t.Helper()
		for key, w := range want {
			ok := func() bool {
				v, present := zone(name)[key].(float64)
				return present && near(key, v, w)
			}
			if !testutil.Eventually(ok) {
				t.Errorf("zone %q: %s = %v, want %v (%s; %s)", name, key, zone(name)[key], w, c.Source, c.Note)
			}
		}
	}
	if c.Zone != "" {
		expect(c.Zone, c.Want)
		for _, key := range c.Absent {
			if v, present := zone(c.Zone)[key]; present {
				t.Errorf("zone %q: %s = %v, want none (%s)", c.Zone, key, v, c.Note)
			}
		}
	}
	for name, want := range c.Probes {
		expect(name, want)
	}
	if c.Avail != "" && !c.NoZone { // a device known only by its availability has no status yet
		want := c.Avail == "offline"
		testutil.WaitFor(t, "the availability", func() bool {
			for _, st := range h.store.Statuses() {
				if strings.HasSuffix(st.Source, "/"+c.Zone) && (st.Err != nil && strings.Contains(st.Err.Error(), "offline")) == want {
					return true
				}
			}
			return false
		})
	}
	for _, field := range c.Problems {
		if !strings.Contains(h.log.String(), field) {
			t.Errorf("no warning names the dropped field %s", field)
		}
	}
}

// near compares a structure value with the expected one to the
// structure's precision.
func near(key string, got, want float64) bool {
	decimals := 1
	if info, ok := sensors.Lookup(sensors.Measurement(key)); ok {
		decimals = info.Decimals
	}
	return math.Abs(got-want) <= 0.5*math.Pow10(-decimals)+1e-9
}

// spoil gives the payload truncated (if it is long enough to cut) and
// garbled: every digit replaced, so that no number survives.
func spoil(p string) [][]byte {
	var out [][]byte
	if len(p) > 4 && (p[0] == '{' || p[0] == '[') {
		out = append(out, []byte(p[:len(p)/2]))
	}
	g := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return 'x'
		}
		return r
	}, p)
	if g != p {
		out = append(out, []byte(g))
	}
	return out
}

// logged reports whether a warning names topic and begins the payload's
// excerpt.
func (h *corpusHub) logged(topic string, payload []byte) bool {
	head := payload[:min(len(payload), 12)]
	if i := bytes.IndexFunc(head, func(r rune) bool { return r < 0x20 }); i >= 0 {
		head = head[:i] // the excerpt shows control characters as ·
	}
	quoted := strings.Trim(fmt.Sprintf("%q", head), `"`)
	for _, line := range strings.Split(h.log.String(), "\n") {
		if strings.Contains(line, "level=WARN") && strings.Contains(line, "topic="+quoteIfNeeded(topic)) &&
			(strings.Contains(line, "bad payload dropped") || strings.Contains(line, "bad value dropped")) &&
			strings.Contains(line, quoted) {
			return true
		}
	}
	return false
}

// quoteIfNeeded spells a value as slog's text handler does.
func quoteIfNeeded(s string) string {
	if strings.ContainsAny(s, " \"=") {
		return fmt.Sprintf("%q", s)
	}
	return s
}
