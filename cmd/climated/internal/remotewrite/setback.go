package remotewrite

import (
	"context"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/climate"
)

// setBackSlack is how far the cursor may be past the clock's present
// (its time less the delay) before the clock is taken as set back: the
// cursor never passes the present, so only a clock that went back puts
// it there, and a step of NTP's of a few seconds is let be.
const setBackSlack = time.Minute

// setBack is the way over the readings sent ahead of the clock, once it
// was set back behind them (a Raspberry Pi without a real-time clock, a
// date set wrong by hand, a bad NTP server, set right again).
//
// The rule. The cursor is the last reading sent in (time, series) order,
// and nothing gives the order in which readings were recorded (the raw
// tier has no row ids, only those keys), so the readings recorded once
// the clock is right, stamped before the cursor, are found by time. When
// the cursor is more than setBackSlack past the clock's present (its
// time less the delay), the sender logs it once and goes back before the
// present by the longest of: the backfill (as for a new store), and the
// real time since it last looked plus MaxAhead (a source's clock may be
// that far behind), so that every reading recorded since the clock went
// back is after it. When this run saw the clock jump ahead, it goes back
// no further than the cursor was then: what was sent before the jump is
// not sent again (otherwise those within that span are, with the same
// times and values, which a store takes as one sample). From there it
// sends, as the clock goes on, the readings before the first one
// stamped past the current (the clock plus climate.MaxAhead) it found
// then (from: those were stamped ahead and sent; one of a device a few
// minutes fast, within MaxAhead, was recorded since);
// when the clock reaches them it goes on from the old cursor (ahead), so
// they are not sent twice. A clock that jumps ahead and is set back
// again before it reaches them has the sender go back again the same
// way: the record keeps its last reading sent ahead, and its start only
// moves earlier, to the first the second jump sent. The amounts' counters are worked out again
// from the history at each move (history.AmountTotals). The two
// positions are kept in the database beside the cursor (its schema step
// 003_set_back, written with it), so that a restart in between goes on
// where the sender was: it neither sends again the readings recorded
// since that went, nor skips any, nor sends those stamped ahead.
type setBack struct {
	ahead history.Position // the cursor as it was: the last reading sent ahead of the clock
	from  int64            // the second of the first reading sent ahead: the readings from it on to ahead were sent
}

// clockWatch is what the sender notes of its clock at each look for a
// batch, to tell how far back to go once the clock was set back.
type clockWatch struct {
	real  time.Time // time.Now() at the last look: monotonic, whatever the wall clock did
	clock time.Time // the sender's clock then
	// before is the cursor when the clock was last seen jumping forward
	// (its time went on further than the real time by setBackSlack):
	// every reading up to it was sent before the jump. Zero when none
	// was seen in this run.
	before history.Position
}

// look notes the clock at now, and the cursor when it jumped forward
// since the last look; it returns the real time since that look (the
// interval at the first).
func (s *Sender) look(now time.Time) time.Duration {
	w := &s.watch
	since := s.cfg.Interval
	if !w.real.IsZero() {
		since = time.Since(w.real)
		if now.Sub(w.clock)-since > setBackSlack {
			w.before = s.cur.pos
		}
	}
	w.real, w.clock = time.Now(), now
	return since
}

// checkClock notices, before a batch is read, a clock set back behind
// the cursor (setBack), also while an earlier set-back's way over the
// readings sent ahead is kept (the clock jumped ahead and back again
// before it reached them): the record is kept, its start only moving
// earlier to the readings the second jump sent.
func (s *Sender) checkClock(ctx context.Context) error {
	now := s.now()
	since := s.look(now)
	if now.Before(climate.ClockSet) {
		return nil // a clock never set judges nothing
	}
	present := now.Add(-s.cfg.Delay).Unix()
	if s.cur.pos.T <= present+int64(setBackSlack.Seconds()) {
		return nil
	}
	back, err := s.sentAhead(ctx, now)
	if err != nil {
		return err
	}
	// Back by lookBack, but not before the readings sent before the
	// clock jumped ahead, when this run saw it jump.
	pos := history.End(present - int64(max(s.cfg.Backfill, since+climate.MaxAhead).Seconds()))
	if b := s.watch.before; b.T <= present && pos.Before(b) {
		pos = b
	}
	totals, err := s.hist.AmountTotals(ctx, pos)
	if err != nil {
		return err
	}
	s.back, s.cur.pos, s.cur.totals = back, pos, totals
	if err := s.db.save(ctx, s.kept(), nil); err != nil {
		return err
	}
	s.log.Warn("remote write: the clock is behind the readings sent (it was set back): the readings recorded since are sent from "+
		stamp(pos.T)+", and those stamped ahead, sent already, are passed over when the clock reaches them",
		"sent_up_to", stamp(back.ahead.T), "stamped_ahead_from", stamp(back.from), "clock", now.UTC().Format(time.RFC3339))
	s.mu.Lock()
	s.st.State, s.st.SentAhead = StateSetBack, time.Unix(back.ahead.T, 0)
	s.mu.Unlock()
	return nil
}

// sentAhead is where the readings sent ahead of the clock at now lie:
// up to the cursor (or, while an earlier set-back's record is kept, up
// to its last), from the first reading stamped past what is current at
// now (climate.NewestCurrent: the clock plus climate.MaxAhead; a reading
// of a device a few minutes fast, recorded since, was not sent ahead),
// or the earlier record's start when that is earlier.
func (s *Sender) sentAhead(ctx context.Context, now time.Time) (*setBack, error) {
	back := &setBack{ahead: s.cur.pos, from: s.cur.pos.T + 1}
	t, ok, err := s.hist.NextAfter(ctx, history.End(climate.NewestCurrent(now)))
	if err != nil {
		return nil, err
	}
	if ok && t <= s.cur.pos.T {
		back.from = t
	}
	if s.back != nil {
		back.ahead, back.from = s.back.ahead, min(s.back.from, back.from)
	}
	return back, nil
}

// sendable is the last second whose readings are sent now: upto, and
// while the clock is behind readings sent, the second before the first
// of them.
func (s *Sender) sendable() int64 {
	u := s.upto()
	if s.back != nil {
		u = min(u, s.back.from-1)
	}
	return u
}

// passAhead ends the way over the readings sent ahead of the clock once
// the clock has reached them, every reading before them sent: the
// cursor goes on from the last of them. It reports whether it did.
func (s *Sender) passAhead(ctx context.Context) (bool, error) {
	if s.back == nil || s.upto() < s.back.from {
		return false, nil
	}
	totals, err := s.hist.AmountTotals(ctx, s.back.ahead)
	if err != nil {
		return false, err
	}
	s.cur.pos, s.cur.totals, s.back = s.back.ahead, totals, nil
	if err := s.db.save(ctx, s.cur, nil); err != nil {
		return false, err
	}
	s.log.Info("remote write: the clock reached the readings sent ahead of it: sending goes on after them", "sent_up_to", stamp(s.cur.pos.T))
	s.mu.Lock()
	s.st.State, s.st.SentAhead, s.st.SentUpTo = StateCatchingUp, time.Time{}, time.Unix(s.cur.pos.T, 0)
	s.mu.Unlock()
	return true, nil
}

// kept is the cursor as the database keeps it: the position of the last
// reading sent, and while the clock is behind readings sent, where those
// lie (schema step 003_set_back), so that a restart goes on from there.
func (s *Sender) kept() cursor {
	c := s.cur
	c.back = s.back
	return c
}

func stamp(t int64) string { return time.Unix(t, 0).UTC().Format(time.RFC3339) }
