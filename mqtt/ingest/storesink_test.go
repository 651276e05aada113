package ingest

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/mqtt/publish"
	"github.com/climated/climated/sensors"
)

// storeSink is what these tests need of the hub (history/hub, which sits
// above this package): a real history store with the get_climate
// structure of history/climate beside it. Record keeps the valid readings
// in the store, then in the structure, as the hub does; a sink opened on
// an existing file reads its recent window back first, as the hub does at
// start. The hub's own parts (notification, its lifecycle) are tested in
// history/hub, and a real hub on MQTT in cmd/climated.
type storeSink struct {
	*history.Store
	live *climate.Live

	mu       sync.Mutex
	statuses map[string]sensors.Status
}

var (
	_ sensors.Sink      = (*storeSink)(nil)
	_ publish.Snapshots = (*storeSink)(nil)
)

// openStore opens a store sink in the test's directory, closed at its end.
func openStore(t testing.TB) *storeSink {
	t.Helper()
	s, err := openStoreAt(filepath.Join(t.TempDir(), "climate.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

// openStoreAt opens a store sink on the history at path.
func openStoreAt(path string) (*storeSink, error) {
	st, err := history.Open(context.Background(), path, nil)
	if err != nil {
		return nil, err
	}
	s := &storeSink{Store: st, live: climate.New(nil), statuses: map[string]sensors.Status{}}
	s.live.Load(st.Opened()...)
	return s, nil
}

// Record implements sensors.Sink as hub.Hub does.
func (s *storeSink) Record(ctx context.Context, b sensors.Batch) error {
	valid, invalid := history.Prepare(b.Readings)
	if len(valid) > 0 {
		b.Readings = valid
		if err := s.Store.Record(ctx, b); err != nil {
			return err
		}
		s.live.Add(valid)
	}
	return invalid
}

// Report implements sensors.Sink: the latest status of each source.
func (s *storeSink) Report(st sensors.Status) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.statuses[st.Source] = st
}

// Statuses are the statuses reported, the latest of each source.
func (s *storeSink) Statuses() []sensors.Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]sensors.Status, 0, len(s.statuses))
	for _, st := range s.statuses {
		out = append(out, st)
	}
	return out
}

// Zones are the zones with readings, sorted.
func (s *storeSink) Zones() []string { return s.live.Zones() }

func (s *storeSink) Snapshot() *climate.Snapshot { return s.live.Snapshot() }

func (s *storeSink) Points(zone string, m sensors.Measurement, from int64) []climate.Point {
	return s.live.Points(zone, m, from)
}
