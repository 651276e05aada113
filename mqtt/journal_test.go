package mqtt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func key(id uint16, payload string) DeliveryKey {
	return MessageKey(Message{ID: id, Topic: "sensors/a", Payload: []byte(payload)})
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
	s.Hold(k1, at)
	s.Hold(k2, at.Add(time.Second))
	s.Hold(k3, at.Add(2*time.Second))
	if _, err := s.Begin([]DeliveryKey{k1}); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Begin([]DeliveryKey{k2}); err != nil { // then killed before the commit
		t.Fatal(err)
	}

	s, err = openJournal(path, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		k     DeliveryKey
		found bool
		state MarkState
		at    time.Time
	}{
		{k1, true, MarkCommitted, at},
		{k2, true, MarkUncertain, at.Add(time.Second)},
		{k3, false, 0, time.Time{}}, // never journalled: recorded afresh
		{key(1, "other payload"), false, 0, time.Time{}},
	} {
		m, ok := s.Lookup(c.k)
		if ok != c.found || ok && (m.State != c.state || !m.At.Equal(c.at)) {
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
	} else if _, ok := s.Lookup(k1); ok {
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
		var ks []DeliveryKey
		for j := i; j < i+10; j++ {
			k := key(uint16(j), "x")
			s.Hold(k, at)
			ks = append(ks, k)
		}
		s.Begin(ks)
		s.Commit()
	}
	if fi, _ := os.Stat(path); fi.Size() > 4*keepMarks*60 {
		t.Errorf("session file of %d bytes for at most %d marks kept", fi.Size(), 2*keepMarks)
	}
	s, _ = openJournal(path, "")
	if len(s.marks) < keepMarks || len(s.marks) > 2*keepMarks {
		t.Errorf("%d marks after a restart, want %d to %d", len(s.marks), keepMarks, 2*keepMarks)
	}
	if _, ok := s.Lookup(key(n-1, "x")); !ok {
		t.Error("the newest mark is gone")
	}
	if _, ok := s.Lookup(key(0, "x")); ok {
		t.Error("the oldest mark is kept")
	}
}

// FuzzSessionParse: whatever the file holds, reading it does not panic.
func FuzzSessionParse(f *testing.F) {
	f.Add([]byte(sessionHeader + " climated-0123456789ab\np 1 5 00112233445566778899aabbccddeeff\nc 1\ns \"sensors/+\"\n"))
	f.Add([]byte(sessionHeader + " x\np 1\nc\ns sensors\nu \"\\xff\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &Journal{marks: make(map[DeliveryKey]*Mark), filters: make(map[string]bool)}
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
	k := MessageKey(Message{ID: 7, Topic: "zigbee2mqtt/bedroom_th", Payload: []byte(`{"temperature":19.4}`)})
	old.Hold(k, time.Now())
	if _, err := old.Begin([]DeliveryKey{k}); err != nil {
		t.Fatal(err)
	}
	if err := old.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := next.refresh(); err != nil {
		t.Fatal(err)
	}
	if m, ok := next.Lookup(k); !ok || m.State != MarkCommitted {
		t.Errorf("after refresh the old run's committed message is %+v (found %v), want committed", m, ok)
	}
	if next.batch < old.batch {
		t.Errorf("batch numbers go back: %d after the old run's %d", next.batch, old.batch)
	}
}
