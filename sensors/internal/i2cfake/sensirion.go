package i2cfake

import (
	"fmt"
	"time"

	"periph.io/x/conn/v3/i2c/i2ctest"
)

// Step is one transaction of a Sensirion chip: a write or a read, never
// both, and the least time that must have passed since the previous
// transaction ended. Sensirion's chips execute a command between the write
// that sends it and the read that fetches its answer; during that
// execution time they NACK their address, so a read in the same
// transaction as the write (a repeated start) or a read too early fails on
// a real bus. Sources: SCD4x datasheet section 3.3 ("it is required to
// wait the command execution time before issuing the read header"), SCD30
// interface description section 1.1 ("SCD30 does not support repeated
// start condition"), SGP30 datasheet section 6 (wait for the maximum
// execution time, then read), SHT3x datasheet table 9 ("a minimal waiting
// time of 1 ms") and section 4.4, and the SHT4x datasheet's measurement
// durations.
type Step struct {
	W, R []byte
	Wait time.Duration
}

// Write is a transaction that writes b (a command, its arguments and their
// CRCs) after wait has passed since the previous transaction.
func Write(wait time.Duration, b ...byte) Step { return Step{W: b, Wait: wait} }

// Read is a transaction that reads b no sooner than wait after the
// previous transaction: the execution time of the command written before.
func Read(wait time.Duration, b ...byte) Step { return Step{R: b, Wait: wait} }

// Sensirion is a Bus that plays steps back for the chip at addr and, as
// the chip would, NACKs a transaction that writes and reads at once or
// that comes before its Wait has passed. Both faults are also reported by
// Close, so that a driver that swallows the NACK still fails its test.
// Times are the clock's: under testing/synctest they are exact.
func Sensirion(addr uint16, steps ...Step) *Bus {
	ops := make([]i2ctest.IO, len(steps))
	waits := make([]time.Duration, len(steps))
	var errs []error
	for i, s := range steps {
		if len(s.W) > 0 && len(s.R) > 0 {
			errs = append(errs, fmt.Errorf("step %d writes and reads: a Sensirion chip never answers in the transaction of its command", i))
		}
		ops[i] = i2ctest.IO{Addr: addr, W: s.W, R: s.R}
		waits[i] = s.Wait
	}
	b := New(ops...)
	b.waits, b.errs = waits, errs
	return b
}

// Gap is the time that passed before a transaction of a Sensirion bus,
// since the previous one ended; the first transaction's is zero.
type Gap struct {
	Index int
	Gap   time.Duration
}

// timing checks transaction i (a command NACKed is not executed, so
// what follows it need not wait) of a Sensirion bus, called with b locked; it
// returns the fault a real chip would give, or nil.
func (b *Bus) timing(i int, w, r []byte, now time.Time) error {
	var gap time.Duration
	if b.ended {
		gap = now.Sub(b.last)
	}
	b.Gaps = append(b.Gaps, Gap{Index: i, Gap: gap})
	var err error
	switch {
	case len(w) > 0 && len(r) > 0:
		err = fmt.Errorf("transaction %d writes % X and reads %d bytes in one transaction (a repeated start): the chip NACKs the read while it executes the command: %w", i, w, len(r), NACK)
	case i < len(b.waits) && gap < b.waits[i] && !b.nack:
		err = fmt.Errorf("transaction %d came %s after the previous one, want at least %s (the command's execution time): the chip NACKs it: %w", i, gap, b.waits[i], NACK)
	}
	if err != nil {
		b.errs = append(b.errs, err)
	}
	return err
}
