package mqtt

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// A reload opens the session file for the new client while the old one
// journals in it, and 50 SIGHUPs in half a second overlap several reloads
// (once: "rename …/c.db.mqtt.tmp …: no such file or directory"). Many
// sessions opening, refreshing, journalling and rewriting one file at once
// never fail, and every committed message is in the file afterwards.
func TestSessionConcurrentRewrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db.mqtt")
	first, err := openJournal(path, "")
	if err != nil {
		t.Fatal(err)
	}
	id := first.clientID
	const workers, rounds = 8, 20 // 160 marks: far below keepMarks, none forgotten
	at := time.Unix(1_800_000_000, 0)
	keys := make([][]DeliveryKey, workers)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- func() error {
				for r := range rounds {
					s, err := openJournal(path, id) // NewClient, during a reload
					if err != nil {
						return fmt.Errorf("open: %w", err)
					}
					if err := s.refresh(); err != nil { // its Run
						return fmt.Errorf("refresh: %w", err)
					}
					k := MessageKey(Message{ID: uint16(w*rounds + r), Topic: "sensors/concurrent", Payload: []byte{byte(w), byte(r)}})
					s.Hold(k, at)
					if _, err := s.Begin([]DeliveryKey{k}); err != nil {
						return fmt.Errorf("begin: %w", err)
					}
					if err := s.Commit(); err != nil {
						return fmt.Errorf("commit: %w", err)
					}
					keys[w] = append(keys[w], k)
					// As commit does once the journal has grown.
					s.mu.Lock()
					err = s.rewrite()
					s.mu.Unlock()
					if err != nil {
						return fmt.Errorf("rewrite: %w", err)
					}
				}
				return nil
			}()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := openJournal(path, "")
	if err != nil {
		t.Fatalf("the file no longer reads: %v\n%s", err, data)
	}
	if s.clientID != id {
		t.Errorf("client id %q, want %q", s.clientID, id)
	}
	lost := 0
	for w := range keys {
		for _, k := range keys[w] {
			if m, ok := s.Lookup(k); !ok || m.State != MarkCommitted {
				lost++
			}
		}
	}
	if lost > 0 {
		t.Errorf("%d of %d committed messages are not committed in the file", lost, workers*rounds)
	}
	leftovers, _ := filepath.Glob(path + "*")
	for _, f := range leftovers {
		if f != path && strings.HasSuffix(f, ".tmp") {
			t.Errorf("temporary file left behind: %s", f)
		}
	}
}

// A rewrite cut short by a crash leaves its temporary file; the next
// open removes it (and the one name of earlier versions).
func TestSessionLeftoversRemoved(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.db.mqtt")
	for _, name := range []string{"c.db.mqtt.1234567.tmp", "c.db.mqtt.tmp", "other.db.mqtt.42.tmp"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("cut short"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := openJournal(path, ""); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "c.db.mqtt other.db.mqtt.42.tmp" {
		t.Errorf("files after open: %s, want the session file and another file's temporary one", got)
	}
}
