// Package i2cfake extends periph's i2ctest.Playback for climated's tests:
// transactions that fail as a real bus fails (a NACK), and a bus shared by
// several chips whose transactions interleave in no fixed order.
package i2cfake

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"
)

// NACK is the error Linux's i2c-dev gives, through periph's sysfs driver,
// when no chip acknowledges its address.
var NACK = errors.New("sysfs-i2c: remote I/O error")

// Bus is a Playback whose transactions at the indexes in Faults return that
// error after matching what was written, as a chip that NACKs does.
type Bus struct {
	i2ctest.Playback
	Faults map[int]error
	// Gaps are the times between transactions of a bus made by
	// Sensirion, in the order they came.
	Gaps []Gap

	waits []time.Duration // per transaction, of a bus made by Sensirion; nil otherwise
	errs  []error         // faults found by a Sensirion bus, reported by Close
	last  time.Time       // when the latest transaction ended
	ended bool            // whether one has
	nack  bool            // whether it failed: the chip executes nothing then
}

// Tx plays the next transaction back, or fails it as Faults says; a bus
// made by Sensirion also fails it as the chip would (see Sensirion).
func (b *Bus) Tx(addr uint16, w, r []byte) error {
	now := time.Now()
	b.Lock()
	i := b.Count
	var terr error
	if b.waits != nil {
		terr = b.timing(i, w, r, now)
	}
	b.Unlock()
	err := b.Playback.Tx(addr, w, r)
	if err == nil {
		err = terr
	}
	if err == nil {
		err = b.Faults[i]
	}
	if b.waits != nil {
		b.Lock()
		b.last, b.ended, b.nack = time.Now(), true, err != nil
		b.Unlock()
	}
	if err != nil {
		clear(r)
	}
	return err
}

// Close checks that every transaction was played back and, for a bus made
// by Sensirion, that none broke the chip's protocol.
func (b *Bus) Close() error {
	err := b.Playback.Close()
	b.Lock()
	defer b.Unlock()
	return errors.Join(err, errors.Join(b.errs...))
}

// New is a Bus that plays ops back and does not panic on a mismatch, so a
// test reports it through Close.
func New(ops ...i2ctest.IO) *Bus {
	return &Bus{Playback: i2ctest.Playback{Ops: ops, DontPanic: true}}
}

// Mux is a bus on which every address has its own playback, so chips polled
// from different goroutines can share it in any order.
type Mux struct {
	mu    sync.Mutex
	Chips map[uint16]*Bus
	// Missing, if set, is returned for addresses without a playback;
	// NACK otherwise.
	Missing error
	closed  bool
}

// Tx forwards to the playback of addr.
func (m *Mux) Tx(addr uint16, w, r []byte) error {
	m.mu.Lock()
	b, closed := m.Chips[addr], m.closed
	m.mu.Unlock()
	if closed {
		return errors.New("i2cfake: bus closed")
	}
	if b == nil {
		if m.Missing != nil {
			return m.Missing
		}
		return NACK
	}
	return b.Tx(addr, w, r)
}

// Close checks that every playback was used up.
func (m *Mux) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	var errs []error
	for addr, b := range m.Chips {
		if err := b.Close(); err != nil {
			errs = append(errs, fmt.Errorf("0x%02x: %w", addr, err))
		}
	}
	return errors.Join(errs...)
}

func (m *Mux) String() string                    { return "mux" }
func (m *Mux) SetSpeed(f physic.Frequency) error { return nil }

var (
	_ i2c.Bus       = (*Bus)(nil)
	_ i2c.BusCloser = (*Mux)(nil)
)

// Is reports whether err matches want: errors.Is, or, when want is a typed
// error such as &sensirion.CRCError{}, an error of that type in err's chain.
func Is(err, want error) bool {
	if errors.Is(err, want) {
		return true
	}
	if want == nil || err == nil {
		return false
	}
	target := reflect.New(reflect.TypeOf(want))
	return errors.As(err, target.Interface())
}

// Fault is a case of a fault table: transactions, the ones that fail, and
// the error the driver must give (nil: any error).
type Fault struct {
	Name   string
	Ops    []i2ctest.IO
	Faults map[int]error
	Want   error
}

// CheckFaults plays every case back to use, which opens the chip and
// senses once; each must fail with its Want, and use all its transactions.
func CheckFaults(t *testing.T, cases []Fault, use func(b *Bus) error) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			b := New(c.Ops...)
			b.Faults = c.Faults
			err := use(b)
			if err == nil || (c.Want != nil && !Is(err, c.Want)) {
				t.Errorf("err = %v, want %v", err, c.Want)
			}
			if err := b.Close(); err != nil {
				t.Error(err)
			}
		})
	}
}
