package stampguard

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/internal/loglimit"
	"github.com/climated/climated/sensors"
)

// Floor is the earliest time a set clock can say: a Pi without a
// real-time clock starts near 1970 (or at the last shutdown) until NTP
// answers.
var Floor = climate.ClockSet

// A reading more than this before the newest one recorded when the hub
// started was stamped by a clock that went back: a device that sends
// what it buffered is rarely further behind.
const clockSlack = time.Hour

// Guard refuses readings stamped by a clock that cannot be right: a
// Pi has no real-time clock and, until NTP answers, says 1970 (or a
// clock set back stamps readings before those already recorded). Such
// readings would land at the wrong end of the history, so they are
// dropped and reported, at most once a minute. The hub asks Admit of
// every reading (hub.Hub.Admit).
type Guard struct {
	log   *slog.Logger
	floor time.Time // readings before it are refused

	mu      sync.Mutex
	refused int       // since the last report
	example time.Time // one of them
	said    *loglimit.Limiter
}

// History is what the guard asks the history at start.
type History interface {
	Latest() time.Time // the newest current reading (none ahead of the clock)
	Ahead(ctx context.Context, now time.Time) (history.Ahead, error)
}

// NewGuard sets the floor from the history's newest current reading
// and reports the readings the history holds ahead of the clock: they do
// not hold new readings back (nor hide them: see climate.NewestCurrent).
func NewGuard(ctx context.Context, log *slog.Logger, h History) *Guard {
	floor := Floor
	if l := h.Latest().Add(-clockSlack); l.After(floor) {
		floor = l
	}
	now := time.Now()
	if a, err := h.Ahead(ctx, now); err != nil {
		log.Warn("could not count the readings ahead of the clock", "err", err)
	} else if a.Count > 0 {
		log.Warn(AheadText(a, now), "to_delete", AheadFix())
	}
	return &Guard{log: log, floor: floor, said: loglimit.New(time.Minute)}
}

// Admit says whether r may be recorded: false, and reported, when it is
// stamped before the floor.
func (g *Guard) Admit(r sensors.Reading) bool {
	if !r.Time.Before(g.floor) {
		return true
	}
	g.refuse(r)
	return false
}

func (g *Guard) refuse(r sensors.Reading) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.refused++
	g.example = r.Time
	if ok, _ := g.said.Allow("refused", time.Now()); !ok {
		return
	}
	g.log.Warn("readings refused: stamped before the clock can be right; is the clock set? (climated doctor)",
		"refused", g.refused, "stamped", g.example.UTC().Format(time.RFC3339), "source", r.Source, "not_before", g.floor.UTC().Format(time.RFC3339))
	g.refused = 0
}
