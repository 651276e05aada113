package history

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/climated/climated/sensors"
)

// Past the raw retention the history keeps no reading's instant, only the
// buckets of the rollups it fell in, so it cannot tell a reading sent
// again (an import run twice, a backup restored over its own history)
// from a new one. A reading from before the raw retention is recorded
// only into a bucket the history holds nothing of yet: a 5-minute bucket,
// or an hour past the 5-minute rollups' retention. One that falls into a
// bucket already summarised is not recorded, so that no count, mean or
// rain sum counts a reading twice. Retention deletes raw readings and
// 5-minute buckets a whole bucket of the next tier at a time (prune), so
// a bucket the raw tier holds any reading of is one it holds all of, and
// the raw tier tells its repeats.

// summarised says, within one transaction, which buckets of old readings
// the history summarises already. It reads, per series and tier, the
// rollups' buckets over the span of the readings it is given once, and
// the raw tier only for a bucket found there: an import of old history
// into a history that holds none of it costs a query a series a chunk.
// What it found holds for the transaction: retention does not run
// within one.
type summarised struct {
	lo, hi  int64            // the span of the readings, Unix seconds
	loaded  map[sealKey]bool // (series, tier): its buckets over the span read
	held    map[sealKey]bool // a bucket the rollups hold
	verdict map[sealKey]bool // a bucket held: whether sealed (the finer tiers cannot tell its repeats)
}

type sealKey struct {
	series, t int64 // the bucket's start (0 in loaded)
	tier      int   // index into rollupTiers
}

func newSummarised(rs []sensors.Reading) *summarised {
	s := &summarised{loaded: map[sealKey]bool{}, held: map[sealKey]bool{}, verdict: map[sealKey]bool{}}
	for i, r := range rs {
		t := r.Time.Unix()
		if i == 0 || t < s.lo {
			s.lo = t
		}
		if i == 0 || t > s.hi {
			s.hi = t
		}
	}
	return s
}

// sealed reports whether a reading of series id at t falls into a bucket
// the history summarises without the finer tiers to tell its repeats: a
// 5-minute bucket the raw tier holds nothing of, or an hour or a day
// that counts more readings than the finer tier holds of it (retention
// deleted its 5-minute buckets, or forget its later hours and kept the
// day whole). It goes by what the tiers hold, not by the retentions as
// they are now, which may have grown since the history was pruned.
func (s *summarised) sealed(ctx context.Context, tx *sql.Tx, id, t int64) (bool, error) {
	for tier := range rollupTiers {
		width := int64(rollupTiers[tier].width / time.Second)
		k := sealKey{id, floorTo(t, width), tier}
		held, err := s.holds(ctx, tx, k)
		if err != nil {
			return false, err
		}
		if !held {
			continue
		}
		sealed, err := s.judge(ctx, tx, k)
		if err != nil {
			return false, err
		}
		if sealed && tier > 0 {
			// The raw tier may hold it still, kept longer than the
			// 5-minute rollups (RawRetention over RollupRetention).
			return s.rawSealed(ctx, tx, id, t)
		}
		if sealed || tier == 0 {
			return sealed, nil
		}
	}
	return false, nil
}

// judge reports whether bucket k, which the rollups hold, is summarised
// without the finer tier to tell its repeats, once a transaction.
// Retention deletes whole buckets of the next tier, so a 5-minute bucket
// the raw tier holds any of is one it holds all of. Found open, a bucket
// stays open within the transaction, as the readings it takes go into
// every tier.
func (s *summarised) judge(ctx context.Context, tx *sql.Tx, k sealKey) (bool, error) {
	if sealed, known := s.verdict[k]; known {
		return sealed, nil
	}
	width := int64(rollupTiers[k.tier].width / time.Second)
	q := "SELECT NOT EXISTS (SELECT 1 FROM raw WHERE series = ?1 AND t >= ?2 AND t < ?3)"
	if k.tier > 0 {
		q = fmt.Sprintf("SELECT (SELECT n FROM %s WHERE series = ?1 AND t = ?2) > (SELECT coalesce(sum(n), 0) FROM %s WHERE series = ?1 AND t >= ?2 AND t < ?3)",
			rollupTiers[k.tier].table, rollupTiers[k.tier-1].table)
	}
	var sealed bool
	if err := tx.QueryRowContext(ctx, q, k.series, k.t, k.t+width).Scan(&sealed); err != nil {
		return false, fmt.Errorf("read the finer tiers at %d: %w", k.t, err)
	}
	s.verdict[k] = sealed
	return sealed, nil
}

// rawSealed reports whether the raw tier cannot tell the repeats of a
// reading of series id at t, which a coarser bucket summarises without
// the 5-minute rollups: whether it holds no reading of its hour up to the
// end of its 5-minute bucket. Retention deletes the raw tier's readings
// oldest first, a whole 5-minute bucket at a time, so one it holds of the
// hour before it says it holds all there was of the bucket.
func (s *summarised) rawSealed(ctx context.Context, tx *sql.Tx, id, t int64) (bool, error) {
	k := sealKey{id, floorTo(t, 300), -1}
	open, known := s.verdict[k]
	if !known {
		if err := tx.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM raw WHERE series = ? AND t >= ? AND t < ?)", id, floorTo(t, 3600), k.t+300).Scan(&open); err != nil {
			return false, fmt.Errorf("read the raw readings at %d: %w", t, err)
		}
		s.verdict[k] = open
	}
	return !open, nil
}

// forget drops what was read of series id's buckets: the series was
// emptied within the transaction (claim's taken).
func (s *summarised) forget(id int64) {
	for _, m := range []map[sealKey]bool{s.loaded, s.held, s.verdict} {
		for k := range m {
			if k.series == id {
				delete(m, k)
			}
		}
	}
}

// maxLoaded bounds the buckets load reads of one series and tier: the
// readings' span holds at most this many (two weeks of 5-minute buckets)
// or each bucket a reading falls in is looked up alone (holds), so that
// one reading stamped years before the rest (a device's clock) makes the
// check hold no more than a bucket a reading.
const maxLoaded = 4096

// holds reports whether the rollups hold bucket k: from its series' and
// tier's buckets over the readings' span, read once (load), or, for a
// span of more than maxLoaded buckets, from a lookup of k alone.
func (s *summarised) holds(ctx context.Context, tx *sql.Tx, k sealKey) (bool, error) {
	width := int64(rollupTiers[k.tier].width / time.Second)
	if (s.hi-floorTo(s.lo, width))/width < maxLoaded {
		if err := s.load(ctx, tx, k.series, k.tier); err != nil {
			return false, err
		}
		return s.held[k], nil
	}
	if held, known := s.held[k]; known {
		return held, nil
	}
	var held bool
	q := fmt.Sprintf("SELECT EXISTS (SELECT 1 FROM %s WHERE series = ? AND t = ?)", rollupTiers[k.tier].table)
	if err := tx.QueryRowContext(ctx, q, k.series, k.t).Scan(&held); err != nil {
		return false, fmt.Errorf("read what the history summarises: %w", err)
	}
	s.held[k] = held
	return held, nil
}

// load reads the buckets of series id in rollupTiers[tier] over the
// readings' span, once.
func (s *summarised) load(ctx context.Context, tx *sql.Tx, id int64, tier int) error {
	lk := sealKey{series: id, tier: tier}
	if s.loaded[lk] {
		return nil
	}
	width := int64(rollupTiers[tier].width / time.Second)
	rows, err := tx.QueryContext(ctx, fmt.Sprintf("SELECT t FROM %s WHERE series = ? AND t >= ? AND t <= ?", rollupTiers[tier].table), id, floorTo(s.lo, width), s.hi)
	if err != nil {
		return fmt.Errorf("read what the history summarises: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var t int64
		if err := rows.Scan(&t); err != nil {
			return fmt.Errorf("read what the history summarises: %w", err)
		}
		s.held[sealKey{id, t, tier}] = true
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read what the history summarises: %w", err)
	}
	s.loaded[lk] = true
	return nil
}

// saySummarised logs the readings a compaction step left out as
// summarised already (a device that sent its old readings again): at
// most one line every errLogEvery, with the count of those unsaid.
func (w *writer) saySummarised(n int64) {
	if n == 0 {
		return
	}
	if ok, quiet := w.errLog.Allow("summarised", time.Now()); ok {
		w.log.Info("readings older than the raw retention left out: the history summarises their spans already, and keeps no single reading that old to tell a repeat by",
			"count", n, "raw_retention", w.opts.RawRetention, "unlogged_before", quiet)
	}
}
