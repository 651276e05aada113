package mqtt

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"
)

// The session file keeps what a persistent MQTT session needs across
// restarts: the client id the broker knows the hub by, and a journal of
// the recent QoS 1 messages the ingest recorded. The broker delivers again
// (with the DUP flag) every message it has not seen acknowledged, also one
// whose readings were committed just before the hub was killed; the
// journal tells those apart from messages never recorded.
//
// It is a text file, appended to with one write per batch: a header line,
// then
//
//	p <batch> <receive time, Unix ns> <message key, hex>   before the readings go to the history
//	c <batch>                                               once the history has committed them
//	s <filter, quoted>                                      subscribed on the broker
//	u <filter, quoted>                                      unsubscribed
//
// The filters let a later start unsubscribe what the configuration no
// longer has: a persistent session keeps every subscription, and the
// broker would go on queueing its messages for the hub.
//
// Each write survives a SIGKILL (it is in the kernel's page cache); like
// the history, which commits with synchronous=NORMAL, the file is not
// synced, so a power cut can lose its last lines.
const (
	sessionHeader = "climated mqtt session 1"
	// keepMarks bounds the journal, which keeps the latest keepMarks to
	// 2·keepMarks messages: a broker redelivers at most its in-flight
	// window of unacknowledged messages (mosquitto's max_inflight_messages,
	// 20 by default), and the ingest acknowledges every ackDelay, so the
	// last two thousand messages are plenty.
	keepMarks = 2048
	// idBytes of randomness make the client id: "climated-" and 12 hex
	// digits, 21 characters, within the 23 every MQTT 3.1.1 broker takes.
	idBytes = 6
)

// DeliveryKey identifies a message as the broker delivers it again: the same
// packet id (MQTT 3.1.1 §4.4 requires the original one), topic and
// payload.
type DeliveryKey [16]byte

// MessageKey is m's DeliveryKey.
func MessageKey(m Message) DeliveryKey {
	h := sha256.New()
	var id [2]byte
	binary.BigEndian.PutUint16(id[:], m.ID)
	h.Write(id[:])
	h.Write([]byte(m.Topic))
	h.Write([]byte{0})
	h.Write(m.Payload)
	var k DeliveryKey
	copy(k[:], h.Sum(nil))
	return k
}

// MarkState is how far a journalled message's readings got.
type MarkState uint8

const (
	MarkHeld      MarkState = iota // taken in this run, its readings not yet in the history
	MarkPending                    // journalled and handed to the history; not yet committed
	MarkCommitted                  // its readings are committed
	MarkUncertain                  // pending when the previous run ended: committed or not
	MarkLost                       // pending when the previous run ended, and the history has not its mark: not committed
)

// Mark is what the journal knows of one delivered message.
type Mark struct {
	At    time.Time // when the message first arrived: its readings' time
	Batch uint64    // the batch its readings were journalled in
	State MarkState
}

// Journal is the session file in memory: the messages the broker
// delivered and the batches their readings were committed in, so that a
// redelivery after a crash is not recorded twice. Its methods are safe for
// concurrent use.
type Journal struct {
	path     string
	clientID string
	file     *sessionFile // shared with the other sessions on path

	mu      sync.Mutex
	filters map[string]bool // subscribed on the broker
	marks   map[DeliveryKey]*Mark
	order   []DeliveryKey // oldest first
	batch   uint64        // the last batch number used
	begun   []uint64      // batches journalled as pending, not yet committed
	written int           // mark lines appended since the file was last rewritten
}

// openJournal reads the session file at path, or creates it with a new
// client id. A configured clientID replaces the file's; the journal of
// another id is dropped, since the broker's session is another one.
func openJournal(path, clientID string) (*Journal, error) {
	s := &Journal{path: path, file: sessionFileAt(path), marks: make(map[DeliveryKey]*Mark), filters: make(map[string]bool)}
	// Read and rewrite as one, or another session's lines appended in
	// between would be lost, and two first opens would make two ids.
	s.file.mu.Lock()
	defer s.file.mu.Unlock()
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("session_file: %w", err)
	default:
		if err := s.parse(data); err != nil {
			return nil, fmt.Errorf("session_file %s: %w; remove it (the broker's queue for this hub is then lost) or point session_file elsewhere", path, err)
		}
	}
	if clientID != "" && clientID != s.clientID {
		s.clientID = clientID
		s.marks, s.order, s.filters = make(map[DeliveryKey]*Mark), nil, make(map[string]bool)
	}
	if s.clientID == "" {
		b := make([]byte, idBytes)
		rand.Read(b)
		s.clientID = "climated-" + hex.EncodeToString(b)
	}
	if err := s.write(); err != nil {
		return nil, fmt.Errorf("session_file: %w", err)
	}
	removeLeftovers(path)
	return s, nil
}

// add remembers k; past 2·keepMarks marks it forgets the oldest down to
// keepMarks (at once, so that the copy is rare).
func (s *Journal) add(k DeliveryKey, m *Mark) {
	if _, ok := s.marks[k]; !ok {
		s.order = append(s.order, k)
	}
	s.marks[k] = m
	if n := len(s.order) - keepMarks; n > keepMarks {
		for _, old := range s.order[:n] {
			delete(s.marks, old)
		}
		s.order = append(s.order[:0:0], s.order[n:]...)
	}
}

// Lookup finds the mark of a message delivered again.
func (s *Journal) Lookup(k DeliveryKey) (Mark, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.marks[k]
	if !ok {
		return Mark{}, false
	}
	return *m, true
}

// Hold marks a message whose readings, stamped at, are about to be
// recorded in this run.
func (s *Journal) Hold(k DeliveryKey, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.add(k, &Mark{At: at, State: MarkHeld})
}

// Begin journals the held messages ks as a batch, before their readings
// go to the history, and returns the batch's number.
func (s *Journal) Begin(ks []DeliveryKey) (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.batch++
	s.begun = append(s.begun, s.batch)
	var buf bytes.Buffer
	for _, k := range ks {
		m, ok := s.marks[k]
		if !ok {
			continue // forgotten already: more than keepMarks wait
		}
		m.State, m.Batch = MarkPending, s.batch
		fmt.Fprintf(&buf, "p %d %d %x\n", s.batch, m.At.UnixNano(), k[:])
		s.written++
	}
	return s.batch, s.append(buf.Bytes())
}

// MarkName is the history's mark (sensors.Batch's Mark) of batch: the
// history commits it with the batch's readings.
func (s *Journal) MarkName(batch uint64) string {
	return fmt.Sprintf("mqtt %s %d", s.clientID, batch)
}

// Settle records what the history says of batch, pending when the
// previous run ended: committed (journalled as such) or lost. It returns
// the batch's messages' new state.
func (s *Journal) Settle(batch uint64, committed bool) (MarkState, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	state := MarkLost
	if committed {
		state = MarkCommitted
	}
	for _, m := range s.marks {
		if m.Batch == batch && m.State == MarkUncertain {
			m.State = state
		}
	}
	if !committed {
		return state, nil
	}
	return state, s.append(fmt.Appendf(nil, "c %d\n", batch))
}

// Commit records that every batch begun so far is in the history.
func (s *Journal) Commit() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.begun) == 0 {
		return nil
	}
	var buf bytes.Buffer
	done := make(map[uint64]bool, len(s.begun))
	for _, b := range s.begun {
		fmt.Fprintf(&buf, "c %d\n", b)
		done[b] = true
	}
	s.begun = s.begun[:0]
	for _, m := range s.marks {
		if m.State == MarkPending && done[m.Batch] {
			m.State = MarkCommitted
		}
	}
	if err := s.append(buf.Bytes()); err != nil {
		return err
	}
	if s.written > 2*keepMarks {
		return s.rewrite()
	}
	return nil
}

// subscribed records that the broker holds a subscription to f, or no
// longer does.
func (s *Journal) subscribed(f string, on bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.filters[f] == on {
		return nil
	}
	op := "u"
	if on {
		s.filters[f] = true
		op = "s"
	} else {
		delete(s.filters, f)
	}
	return s.append([]byte(op + " " + strconv.Quote(f) + "\n"))
}

// stale lists the filters subscribed on the broker that keep says not to.
func (s *Journal) stale(keep func(string) bool) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var fs []string
	for f := range s.filters {
		if !keep(f) {
			fs = append(fs, f)
		}
	}
	return fs
}
