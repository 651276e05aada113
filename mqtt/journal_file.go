package mqtt

// The journal on disk: read (refresh, parse) and written (append,
// rewrite); the format is described in journal.go.

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// refresh reads the file again, for what another run appended after this
// session was opened: a reload builds the new client while the old one
// still runs, journals and commits. Run calls it before connecting, once
// the old run has stopped, so that the journal (and the batch numbers)
// go on from the old run's last line.
func (s *Journal) refresh() error {
	fresh, err := openJournal(s.path, s.clientID)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.filters, s.marks, s.order, s.batch = fresh.filters, fresh.marks, fresh.order, fresh.batch
	s.begun, s.written = nil, 0
	return nil
}

// parse reads the header and the journal; lines it cannot read (a write
// cut short by a full disk) are skipped.
func (s *Journal) parse(data []byte) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	if !sc.Scan() || !strings.HasPrefix(sc.Text(), sessionHeader+" ") {
		return fmt.Errorf("not a climated session file (want a first line %q and the client id)", sessionHeader)
	}
	s.clientID = strings.TrimSpace(strings.TrimPrefix(sc.Text(), sessionHeader+" "))
	committed := map[uint64]bool{}
	for sc.Scan() {
		s.parseLine(sc.Text(), committed)
	}
	for _, m := range s.marks {
		if committed[m.Batch] {
			m.State = MarkCommitted
		}
	}
	return sc.Err()
}

// parseLine applies one journal line: a filter subscribed ("s") or
// unsubscribed ("u"), a batch committed ("c"), a message held in a batch
// ("p"). A line it cannot read is skipped.
func (s *Journal) parseLine(line string, committed map[uint64]bool) {
	if op, q, ok := strings.Cut(line, " "); ok && (op == "s" || op == "u") {
		if f, err := strconv.Unquote(q); err == nil {
			if op == "s" {
				s.filters[f] = true
			} else {
				delete(s.filters, f)
			}
		}
		return
	}
	f := strings.Fields(line)
	switch {
	case len(f) == 2 && f[0] == "c":
		if b, err := strconv.ParseUint(f[1], 10, 64); err == nil {
			committed[b] = true
		}
	case len(f) == 4 && f[0] == "p":
		b, err1 := strconv.ParseUint(f[1], 10, 64)
		ns, err2 := strconv.ParseInt(f[2], 10, 64)
		k, err3 := hex.DecodeString(f[3])
		if err1 != nil || err2 != nil || err3 != nil || len(k) != len(DeliveryKey{}) {
			return
		}
		s.add(DeliveryKey(k), &Mark{At: time.Unix(0, ns), Batch: b, State: MarkUncertain})
		s.batch = max(s.batch, b)
	}
}

// append adds lines to the file in one write. Opening it each time keeps
// no descriptor for the Client's lifetime, which has no Close.
func (s *Journal) append(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	s.file.mu.Lock()
	defer s.file.mu.Unlock()
	if s.file.owner != s.clientID {
		return nil // handed to another client id (see sessionFile)
	}
	f, err := os.OpenFile(s.path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("session file: %w", err)
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("session file: %w", err)
	}
	return nil
}

// rewrite replaces the file with the header and the journal it holds,
// down to the marks kept. It reads the file rather than writing s's
// memory, which lacks what the other sessions on the file appended (the
// old client's last batches during a reload).
func (s *Journal) rewrite() error {
	s.file.mu.Lock()
	defer s.file.mu.Unlock()
	if s.file.owner != s.clientID {
		return nil // handed to another client id (see sessionFile)
	}
	data, err := os.ReadFile(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return s.write() // removed: s's own journal is all there is
	}
	if err != nil {
		return fmt.Errorf("session file: %w", err)
	}
	now := &Journal{path: s.path, file: s.file, marks: make(map[DeliveryKey]*Mark), filters: make(map[string]bool)}
	if err := now.parse(data); err != nil {
		return fmt.Errorf("session file %s: %w", s.path, err)
	}
	if now.clientID != s.clientID {
		return nil // changed by hand or by another process: theirs
	}
	if err := now.write(); err != nil {
		return fmt.Errorf("session file: %w", err)
	}
	s.written = 0
	return nil
}

// write replaces the file with the header and s's journal, held messages
// left out; the rename makes the change all or nothing. s.file.mu is held.
func (s *Journal) write() error {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "%s %s\n", sessionHeader, s.clientID)
	for f := range s.filters {
		fmt.Fprintf(&buf, "s %s\n", strconv.Quote(f))
	}
	committed := map[uint64]bool{}
	for _, k := range s.order {
		m := s.marks[k]
		if m.State == MarkHeld {
			continue // not yet journalled
		}
		fmt.Fprintf(&buf, "p %d %d %x\n", m.Batch, m.At.UnixNano(), k[:])
		if m.State == MarkCommitted && !committed[m.Batch] {
			committed[m.Batch] = true
			fmt.Fprintf(&buf, "c %d\n", m.Batch)
		}
	}
	if err := replaceFile(s.path, buf.Bytes()); err != nil {
		return err
	}
	s.file.owner = s.clientID
	return nil
}
