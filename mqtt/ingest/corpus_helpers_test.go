package ingest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/mqtt/internal/mqtttest"
)

// corpusCase is one upstream payload of testdata/corpus/<project>.json,
// with where it comes from and what a user expects of it in the
// get_climate structure (values rounded as the structure rounds them)
// under testdata/corpus/config.yaml at an altitude of corpusAltitude.
type corpusCase struct {
	Name      string `json:"name"`
	Source    string `json:"source"`
	Format    string `json:"format"`
	Topic     string `json:"topic"`
	TopicNote string `json:"topic_note"`
	Payload   string `json:"payload"`
	Retained  bool   `json:"retained"`
	// Zone is where the device's values go; Want are its keys in the
	// structure after this message, Absent keys it must not have.
	Zone   string             `json:"zone"`
	Want   map[string]float64 `json:"want"`
	Absent []string           `json:"absent"`
	// Probes are the zones of the device's further probes and their keys.
	Probes map[string]map[string]float64 `json:"probes"`
	// NoZone: the message makes no zone (no climate value).
	NoZone bool `json:"nozone"`
	// Avail is the availability the message says (online, offline).
	Avail string `json:"avail"`
	// Ignored: a topic the format does not use.
	Ignored bool `json:"ignored"`
	// Problems are the fields named as dropped.
	Problems []string `json:"problems"`
	// SkipBad leaves the message out of the truncated and garbled pass
	// (nothing in it to spoil: online, None …).
	SkipBad bool   `json:"skip_bad"`
	Note    string `json:"note"`
}

// corpusAltitude is the altitude the corpus's sea-level Pressures assume.
const corpusAltitude = 100

// corpusProjects are the corpus files, in the order they are replayed.
var corpusProjects = []string{"zigbee2mqtt", "tasmota", "esphome", "shelly", "theengs", "rtl_433"}

// corpusOwnPrefix are the corpus files of devices under a topic prefix of
// their own (a Gen2+ Shelly's id, or one set on it): each needs its own
// subscription, which config.yaml has as the README recommends and the
// README's example, written for other devices, cannot.
var corpusOwnPrefix = []string{"shelly_own_prefix"}

func loadCorpus(t testing.TB, project string) []corpusCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "corpus", project+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var cs []corpusCase
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cs); err != nil {
		t.Fatalf("testdata/corpus/%s.json: %v", project, err)
	}
	for _, c := range cs {
		if c.Source == "" || c.Topic == "" || c.Name == "" {
			t.Fatalf("testdata/corpus/%s.json: case %q needs a name, a source and a topic", project, c.Name)
		}
	}
	return cs
}

// upstream is the corpus case project/name.
func upstream(t testing.TB, project, name string) corpusCase {
	t.Helper()
	for _, c := range loadCorpus(t, project) {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no case %q in testdata/corpus/%s.json", name, project)
	return corpusCase{}
}

func (c corpusCase) msg() mqtt.Message {
	return mqtt.Message{Topic: c.Topic, Payload: []byte(c.Payload), Retained: c.Retained}
}

// capturingIngest is an ingest without a client whose log (also shown
// through t) is kept for the test to read.
func capturingIngest(t *testing.T, opts Options, ms ...Mapping) (*Ingest, *testutil.Buffer) {
	t.Helper()
	buf := &testutil.Buffer{}
	opts.Logger = mqtttest.LoggerTo(t, buf)
	if opts.Now == nil {
		opts.Now = func() time.Time { return t0 }
	}
	in, err := New(nil, ms, &opts)
	if err != nil {
		t.Fatal(err)
	}
	return in, buf
}
