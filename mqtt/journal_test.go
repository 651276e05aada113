package mqtt

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt/decode"
	"github.com/climated/climated/sensors"
)

func key(id uint16, payload string) deliveryKey {
	return messageKey(Message{ID: id, Topic: "sensors/a", Payload: []byte(payload)})
}

// The session file keeps the client id and, across a restart, tells a
// committed message from one whose commit the restart cut short.
func TestSessionJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "climated.db.mqtt")
	s, err := openJournal(path, "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.clientID, "climated-") || len(s.clientID) != 21 {
		t.Errorf("client id %q, want climated- and 12 hex digits", s.clientID)
	}
	at := time.Unix(1_800_000_000, 5)
	k1, k2, k3 := key(1, "a"), key(2, "b"), key(3, "c")
	s.hold(k1, at)
	s.hold(k2, at.Add(time.Second))
	s.hold(k3, at.Add(2*time.Second))
	if _, err := s.begin([]deliveryKey{k1}); err != nil {
		t.Fatal(err)
	}
	if err := s.commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.begin([]deliveryKey{k2}); err != nil { // then killed before the commit
		t.Fatal(err)
	}

	s, err = openJournal(path, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		k     deliveryKey
		found bool
		state markState
		at    time.Time
	}{
		{k1, true, markCommitted, at},
		{k2, true, markUncertain, at.Add(time.Second)},
		{k3, false, 0, time.Time{}}, // never journalled: recorded afresh
		{key(1, "other payload"), false, 0, time.Time{}},
	} {
		m, ok := s.lookup(c.k)
		if ok != c.found || ok && (m.state != c.state || !m.at.Equal(c.at)) {
			t.Errorf("%x: %+v %v, want %v %v at %v", c.k[:4], m, ok, c.found, c.state, c.at)
		}
	}
	id := s.clientID
	if s, _ = openJournal(path, ""); s.clientID != id {
		t.Errorf("client id changed from %q to %q", id, s.clientID)
	}
	// A configured client id is another session: the journal goes.
	if s, _ = openJournal(path, "hub-upstairs"); s.clientID != "hub-upstairs" {
		t.Errorf("client id %q, want the configured one", s.clientID)
	} else if _, ok := s.lookup(k1); ok {
		t.Error("the journal of another client id was kept")
	}

	bad := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(bad, []byte("shopping list\n"), 0o600)
	if _, err := openJournal(bad, ""); err == nil || !strings.Contains(err.Error(), "not a climated session file") {
		t.Errorf("a file of something else: %v", err)
	}
}

// The journal stays bounded: the file is rewritten with the latest
// keepMarks to 2·keepMarks marks, the oldest forgotten.
func TestSessionJournalBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s")
	s, err := openJournal(path, "")
	if err != nil {
		t.Fatal(err)
	}
	const n = 3*keepMarks + 10
	at := time.Unix(1_800_000_000, 0)
	for i := 0; i < n; i += 10 {
		var ks []deliveryKey
		for j := i; j < i+10; j++ {
			k := key(uint16(j), "x")
			s.hold(k, at)
			ks = append(ks, k)
		}
		s.begin(ks)
		s.commit()
	}
	if fi, _ := os.Stat(path); fi.Size() > 4*keepMarks*60 {
		t.Errorf("session file of %d bytes for at most %d marks kept", fi.Size(), 2*keepMarks)
	}
	s, _ = openJournal(path, "")
	if len(s.marks) < keepMarks || len(s.marks) > 2*keepMarks {
		t.Errorf("%d marks after a restart, want %d to %d", len(s.marks), keepMarks, 2*keepMarks)
	}
	if _, ok := s.lookup(key(n-1, "x")); !ok {
		t.Error("the newest mark is gone")
	}
	if _, ok := s.lookup(key(0, "x")); ok {
		t.Error("the oldest mark is kept")
	}
}

// flushSink is a recSink that the ingest can flush, as it can the history.
type flushSink struct {
	recSink
	flushes atomic.Int32
}

func (s *flushSink) Flush(context.Context) error { s.flushes.Add(1); return nil }

// A message the broker delivers again after a restart: one already
// committed is not recorded again (neither its gauge nor its rain); one
// whose commit was cut short is recorded at its first arrival's time, which
// the history's (series, second) key makes harmless; one never journalled
// is recorded as new.
func TestRedeliveryRecordedOnce(t *testing.T) {
	rig := newRedeliveryRig(t, filepath.Join(t.TempDir(), "s"), nil)
	message := rig.message
	run := func(now time.Time, msgs ...Message) *flushSink {
		sink := &flushSink{}
		rig.run(now, sink, msgs...)
		return sink
	}
	first := run(t0, message(1, "sensors/committed", false), message(2, "sensors/cut", false))
	if got := len(first.readings); got != 4 {
		t.Fatalf("first run recorded %d readings, want 4", got)
	}
	// Killed between the begin and the commit of sensors/cut's batch.
	sess, _ := openJournal(rig.path, "")
	k := messageKey(message(2, "sensors/cut", true))
	sess.hold(k, t0)
	sess.begin([]deliveryKey{k})

	later := t0.Add(time.Hour)
	second := run(later, message(1, "sensors/committed", true), message(2, "sensors/cut", true),
		message(3, "sensors/never", true))
	want := map[string]time.Time{"sensors/cut": t0, "sensors/never": later}
	for _, r := range second.readings {
		at, ok := want[r.Zone]
		if !ok || !r.Time.Equal(at) {
			t.Errorf("recorded %s %s at %s", r.Zone, r.Measurement, r.Time.Format(time.TimeOnly))
		}
	}
	if len(second.readings) != 4 {
		t.Errorf("second run recorded %d readings, want 4 (CO2 and rain of sensors/cut and sensors/never)", len(second.readings))
	}
	if second.flushes.Load() == 0 {
		t.Error("acknowledged without a flush")
	}
}

// FuzzSessionParse: whatever the file holds, reading it does not panic.
func FuzzSessionParse(f *testing.F) {
	f.Add([]byte(sessionHeader + " climated-0123456789ab\np 1 5 00112233445566778899aabbccddeeff\nc 1\ns \"sensors/+\"\n"))
	f.Add([]byte(sessionHeader + " x\np 1\nc\ns sensors\nu \"\\xff\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &journal{marks: make(map[deliveryKey]*mark), filters: make(map[string]bool)}
		s.parse(data)
	})
}

// A reload builds the new client, which opens the session file, while the
// old one still runs and journals: the new one must see the old run's last
// lines when it starts, or a redelivery of those messages would be
// recorded again (and its batch numbers would collide with the old run's).
func TestSessionRefreshSeesTheOldRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "climated.db.mqtt")
	old, err := openJournal(path, "")
	if err != nil {
		t.Fatal(err)
	}
	next, err := openJournal(path, old.clientID)
	if err != nil {
		t.Fatal(err)
	}
	k := messageKey(Message{ID: 7, Topic: "zigbee2mqtt/bedroom_th", Payload: []byte(`{"temperature":19.4}`)})
	old.hold(k, time.Now())
	if _, err := old.begin([]deliveryKey{k}); err != nil {
		t.Fatal(err)
	}
	if err := old.commit(); err != nil {
		t.Fatal(err)
	}
	if err := next.refresh(); err != nil {
		t.Fatal(err)
	}
	if m, ok := next.lookup(k); !ok || m.state != markCommitted {
		t.Errorf("after refresh the old run's committed message is %+v (found %v), want committed", m, ok)
	}
	if next.batch < old.batch {
		t.Errorf("batch numbers go back: %d after the old run's %d", next.batch, old.batch)
	}
}

// redeliveryRig runs an ingest on one session file, a run at a time, as a
// hub restarted between runs would: each run hands its messages to the
// handler and stops once the broker would have had every acknowledgement.
type redeliveryRig struct {
	t       *testing.T
	path    string
	marked  func(context.Context, []string) (map[string]bool, error)
	mapping Mapping
	acked   atomic.Int32
}

func newRedeliveryRig(t *testing.T, path string, marked func(context.Context, []string) (map[string]bool, error)) *redeliveryRig {
	return &redeliveryRig{t: t, path: path, marked: marked, mapping: Mapping{Topic: "sensors/+", Format: "generic", AutoZone: true,
		Fields: []decode.Field{{Measurement: sensors.CO2, Path: "co2"}, {Measurement: sensors.Rain, Path: "rain"}}}}
}

// message is a QoS 1 delivery of CO2 600 ppm and 0.4 mm of rain.
func (r *redeliveryRig) message(id uint16, topic string, dup bool) Message {
	return Message{Topic: topic, Payload: []byte(`{"co2":600,"rain":0.4}`), QoS: 1, ID: id, Duplicate: dup,
		ack: func() { r.acked.Add(1) }}
}

func (r *redeliveryRig) run(now time.Time, sink sensors.Sink, msgs ...Message) {
	t := r.t
	t.Helper()
	sess, err := openJournal(r.path, "")
	if err != nil {
		t.Fatal(err)
	}
	in := newTestIngest(t, IngestOptions{Now: func() time.Time { return now }, Marked: r.marked}, r.mapping)
	in.journal = sess
	r.acked.Store(0)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- in.Run(ctx, sink) }()
	for _, m := range msgs {
		in.handler(0)(m)
	}
	testutil.WaitFor(t, "the acknowledgements", func() bool { return r.acked.Load() == int32(len(msgs)) })
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
