package hub

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
)

// Hub is the history store with the live structure, the sources' latest
// statuses and change notification around it.
type Hub struct {
	store    *history.Store
	live     *climate.Live
	window   time.Duration // what reload reads back
	statuses statuses
	subs     subscribers

	mu      sync.Mutex // guards parts and closing
	parts   []*part
	closing bool
	once    sync.Once
	err     error
}

var _ sensors.Sink = (*Hub)(nil)

// Open opens the history at path (history.Open) and rebuilds the live
// structure from it.
func Open(ctx context.Context, path string, opts *history.Options) (*Hub, error) {
	st, err := history.Open(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	h, _ := compose(st, opts)
	return h, nil
}

// OpenReadOnly opens the history at path beside the process that writes
// it (history.OpenReadOnly), rebuilds the live structure and follows what
// that process commits every refresh (history.DefaultRefresh when 0), so
// the state, notifications and answers follow the daemon's.
func OpenReadOnly(ctx context.Context, path string, opts *history.Options, refresh time.Duration) (*Hub, error) {
	st, err := history.OpenReadOnly(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	h, ws := compose(st, opts)
	h.Start("history follower", func(ctx context.Context) error {
		st.Follow(ctx, refresh, ws, func(rs []sensors.Reading) { h.add(ctx, rs) })
		return nil
	})
	return h, nil
}

// compose builds the hub around st and returns the windows it loaded.
func compose(st *history.Store, opts *history.Options) (*Hub, []climate.Window) {
	var o history.Options
	if opts != nil {
		o = *opts
	}
	h := &Hub{store: st, window: cmp.Or(o.Window, climate.DefaultWindow), statuses: statuses{m: map[string]sensors.Status{}},
		live: climate.New(&climate.Options{Window: o.Window, Location: o.Location, Now: o.Now, Logger: o.Logger})}
	ws := st.Opened()
	h.live.Load(ws...)
	return h, ws
}

// reload reads every series' recent window back into the live structure
// and resets the series that changed hands (OnSeriesReset).
func (h *Hub) reload(ctx context.Context) ([]climate.Window, error) {
	ws, err := h.store.Windows(ctx, h.window)
	if err != nil {
		return nil, err
	}
	h.subs.wasReset(ctx, h.live.Load(ws...))
	return ws, nil
}

// Record takes a source's batch: it validates the readings (the one
// validation of a reading on its way in), drops those Admit's functions
// refuse, and keeps the rest in the store, with the batch's mark and
// states, and in the live structure; OnRecord's and OnUpdate's
// subscribers hear of those the claim keeps (a series is simulated or
// measured, never both: sensors.Claim), the store skipping the same. A
// batch with no reading left records nothing, its mark and states
// neither: when Admit's functions refused every valid one, Record
// returns an error wrapping sensors.ErrNotAdmitted (joined with the
// invalid readings' errors, if any). See sensors.Sink.
func (h *Hub) Record(ctx context.Context, b sensors.Batch) error {
	valid, invalid := history.Prepare(b.Readings)
	n := len(valid)
	if valid = h.subs.admitted(valid); len(valid) == 0 {
		if n > 0 {
			return errors.Join(invalid, fmt.Errorf("%d readings: %w", n, sensors.ErrNotAdmitted))
		}
		return invalid
	}
	b.Readings = valid
	if err := h.store.RecordPrepared(ctx, b); err != nil {
		return err
	}
	if kept := h.add(ctx, valid); len(kept) > 0 {
		h.subs.recorded(ctx, kept)
	}
	return invalid
}

// add takes valid readings into the live structure, tells listeners of
// the zones that got readings and returns the readings the claim kept:
// the house's, which alone OnRecord's subscribers hear of. The series
// the batch took from the demo are reset first (OnSeriesReset).
func (h *Hub) add(ctx context.Context, rs []sensors.Reading) []sensors.Reading {
	a := h.live.Add(rs)
	h.subs.wasReset(ctx, a.Taken)
	h.subs.notify(a.Kept, a.New)
	return a.Kept
}

// Import imports into the store (history.Store.Import) and rebuilds the
// live structure from what is then recorded; the series the import took
// from the demo are reset (OnSeriesReset).
func (h *Hub) Import(ctx context.Context, r io.Reader, o history.ImportOptions) (history.ImportResult, error) {
	res, err := h.store.Import(ctx, r, o)
	if err != nil {
		return res, err
	}
	if _, err := h.reload(ctx); err != nil {
		return res, fmt.Errorf("import: imported %d readings, then: %w", res.Imported, err)
	}
	return res, nil
}

// Snapshot is the get_climate structure as it stands (climate.Live.Snapshot).
func (h *Hub) Snapshot() *climate.Snapshot { return h.live.Snapshot() }

// Describe lists the zones with their measurements and sources.
func (h *Hub) Describe() []climate.ZoneInfo { return h.live.Describe() }

// Latest is the time of the newest current reading of any series, none
// ahead of the clock (zero if none).
func (h *Hub) Latest() time.Time { return h.live.Latest() }

// Zones lists the zones that have readings, sorted.
func (h *Hub) Zones() []string { return h.live.Zones() }

// Points is the live window's points of zone's m after from (Unix
// seconds): what the derivations see, and what the MQTT publisher sends of
// amounts so that another hub can fill in what it missed.
func (h *Hub) Points(zone string, m sensors.Measurement, from int64) []climate.Point {
	return h.live.Points(zone, m, from)
}

// Close stops what Start started, in reverse order, waiting for each,
// then flushes and closes the store, so that no part reads a closed
// database. It returns the store's error (see history.Store.Close); a
// second Close returns the first one's.
func (h *Hub) Close(ctx context.Context) error {
	h.once.Do(func() {
		h.stopParts()
		h.err = h.store.Close(ctx)
	})
	return h.err
}
