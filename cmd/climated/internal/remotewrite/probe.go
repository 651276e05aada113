package remotewrite

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/climate"
)

// Probe sends cfg's store an empty request, as the hub would send
// readings (its credentials, its TLS, its protocol): nil when the store
// takes it. A store sent 2.0 that answers as one that takes 1.0 only is
// an error, not refused: the hub falls back to 1.0 for it.
// Refused says the store will take nothing until the configuration or
// the store changes; otherwise it may come back by itself.
func Probe(ctx context.Context, cfg Config) (refused bool, err error) {
	c, err := newClient(cfg.withDefaults(0))
	if err != nil {
		return true, err
	}
	cfg = cfg.withDefaults(0)
	body, _ := encode(nil, nil)
	if cfg.Protocol == Protocol2 {
		body, _ = encodeV2(nil)
	}
	r := c.send(ctx, body, cfg.Protocol, 0)
	if r.outcome == Fallback {
		return false, fmt.Errorf("%w: %w", ErrTakesV1Only, r.err)
	}
	return r.outcome == Refused, r.err
}

// ErrTakesV1Only says a store set to protocol 2.0 answered as one that
// takes remote write 1.0 only.
var ErrTakesV1Only = errors.New("protocol 2.0 to a store of 1.0")

// Standing is how a store stands for climated doctor: what its cursor
// kept and how many readings wait.
type Standing struct {
	Kept
	Behind int64 // readings old enough to be sent (at the default delay) that wait
	// SetBack says the readings sent reach past the clock (it was set
	// back behind them): the hub sends those recorded since, and passes
	// over those sent ahead when the clock reaches them (setBack).
	SetBack bool
}

// ReadStanding reads, beside a running hub, the cursor of cfg's store in
// the history at path and counts the readings after it that are old
// enough to be sent; commit is the history's commit interval.
func ReadStanding(ctx context.Context, path string, cfg Config, commit time.Duration, now time.Time) (Standing, error) {
	k, err := ReadKept(ctx, path, cfg.URL)
	if err != nil || !k.Found {
		return Standing{Kept: k}, err
	}
	st, err := history.OpenReadOnly(ctx, path, nil)
	if err != nil {
		return Standing{Kept: k}, err
	}
	defer st.Close(ctx)
	upto := now.Add(-cfg.withDefaults(commit).Delay).Unix()
	if k.SentAhead != (history.Position{}) || !now.Before(climate.ClockSet) && k.Position.T > upto+int64(setBackSlack.Seconds()) {
		return Standing{Kept: k, SetBack: true}, nil
	}
	n, err := st.CountAfter(ctx, k.Position, upto)
	if err != nil {
		return Standing{Kept: k}, fmt.Errorf("count the readings behind: %w", err)
	}
	return Standing{Kept: k, Behind: n}, nil
}

// IsNoSchema reports whether err says the database has no remote-write
// tables yet (a history from before them, or none).
func IsNoSchema(err error) bool { return errors.Is(err, ErrNoSchema) }
