package hub

import (
	"io"

	"context"
	"time"

	"github.com/climated/climated/history/climate"

	"github.com/climated/climated/history"
	"github.com/climated/climated/sensors"
)

// What the hub's users need of the history underneath, and no more: the
// hub used to embed *history.Store, and all of its methods (imports,
// compaction, forgetting) leaked through it.

// Range reads one series of the history (history.Store.Range).
func (h *Hub) Range(ctx context.Context, q history.Query) (*history.Series, error) {
	return h.store.Range(ctx, q)
}

// Daily reads a zone's daily summaries (history.Store.Daily).
func (h *Hub) Daily(ctx context.Context, zone string, from, to time.Time) ([]history.Day, error) {
	return h.store.Daily(ctx, zone, from, to)
}

// YearOf reads a zone's year per month (history.Store.YearOf).
func (h *Hub) YearOf(ctx context.Context, zone string, year int) (history.Year, error) {
	return h.store.YearOf(ctx, zone, year)
}

// Records reads a zone's records this year and ever, or with since set
// those set since then (history.Store.Records, RecordsSince).
func (h *Hub) Records(ctx context.Context, zone string, since time.Time) (*history.Records, error) {
	if since.IsZero() {
		return h.store.Records(ctx, zone)
	}
	return h.store.RecordsSince(ctx, zone, since)
}

// Path is the database file.
func (h *Hub) Path() string { return h.store.Path() }

// Health says whether the history is being written (history.Store.Health).
func (h *Hub) Health() error { return h.store.Health() }

// Flush commits what the sources recorded (history.Store.Flush); the MQTT
// ingest acknowledges messages once it returns.
func (h *Hub) Flush(ctx context.Context) error { return h.store.Flush(ctx) }

// Ping answers once the writer goroutine does (the watchdog's liveness).
func (h *Hub) Ping(ctx context.Context) error { return h.store.Ping(ctx) }

// Refused counts the readings the database refused for their own sake.
func (h *Hub) Refused() int64 { return h.store.Refused() }

// Marked says which marks the history holds (history.Store.Marked).
func (h *Hub) Marked(ctx context.Context, names []string) (map[string]bool, error) {
	return h.store.Marked(ctx, names)
}

// SourceState is a source's committed state (history.Store.SourceState).
func (h *Hub) SourceState(ctx context.Context, key string) (string, bool, error) {
	return h.store.SourceState(ctx, key)
}

// LatestState is a source's state as the history will hold it, the
// batches waiting to be written included (history.Store.LatestState).
func (h *Hub) LatestState(ctx context.Context, key string) (string, bool, error) {
	return h.store.LatestState(ctx, key)
}

// Ahead is what the history holds after now (history.Store.Ahead).
func (h *Hub) Ahead(ctx context.Context, now time.Time) (history.Ahead, error) {
	return h.store.Ahead(ctx, now)
}

// Windows reads every series' recent window (history.Store.Windows): the
// alerts prime their rate rules from it.
func (h *Hub) Windows(ctx context.Context, window time.Duration) ([]climate.Window, error) {
	return h.store.Windows(ctx, window)
}

// Export writes the history as CSV or JSON lines (history.Store.Export).
func (h *Hub) Export(ctx context.Context, w io.Writer, e history.Export) (int64, error) {
	return h.store.Export(ctx, w, e)
}

// Totals sums every value of m per zone (history.Store.Totals): what is
// committed, so Flush first for all that was recorded.
func (h *Hub) Totals(ctx context.Context, m sensors.Measurement) (map[string]int64, error) {
	return h.store.Totals(ctx, m)
}

// ForgetSource deletes the readings of the series whose source begins
// with prefix (history.Store.ForgetSource) and drops them from the live
// structure, so that get_climate and the dashboard no longer show them,
// and resets them (OnSeriesReset). Call it while no source records.
func (h *Hub) ForgetSource(ctx context.Context, prefix string) (history.SourceReport, error) {
	rep, err := h.store.ForgetSource(ctx, prefix)
	if err != nil {
		return history.SourceReport{}, err
	}
	ss := make([]climate.Series, 0, len(rep.Series))
	for _, s := range rep.Series {
		h.live.Drop(s.Zone, s.Measurement)
		ss = append(ss, climate.Series{Zone: s.Zone, Measurement: s.Measurement})
	}
	h.subs.wasReset(ctx, ss)
	return rep, nil
}

// ReadingsAfter reads committed readings in time order after a position
// (history.Store.ReadingsAfter): what a sender pushing them on reads.
func (h *Hub) ReadingsAfter(ctx context.Context, from history.Position, to int64, limit int) ([]history.Stored, error) {
	return h.store.ReadingsAfter(ctx, from, to, limit)
}

// NextAfter is the second of the first committed reading after a
// position (history.Store.NextAfter).
func (h *Hub) NextAfter(ctx context.Context, from history.Position) (int64, bool, error) {
	return h.store.NextAfter(ctx, from)
}

// CountAfter counts the committed readings after a position
// (history.Store.CountAfter).
func (h *Hub) CountAfter(ctx context.Context, from history.Position, upto int64) (int64, error) {
	return h.store.CountAfter(ctx, from, upto)
}

// AmountTotals are the amounts' totals per series up to a position
// (history.Store.AmountTotals).
func (h *Hub) AmountTotals(ctx context.Context, at history.Position) (map[int64]int64, error) {
	return h.store.AmountTotals(ctx, at)
}
