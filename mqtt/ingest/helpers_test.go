package ingest

import (
	"context"
	"testing"

	"github.com/climated/climated/mqtt/internal/mqtttest"
	"github.com/climated/climated/sensors"
)

func runIngest(t testing.TB, in *Ingest, sink sensors.Sink) {
	mqtttest.RunUntilCleanup(t, "ingest Run", func(ctx context.Context) error { return in.Run(ctx, sink) })
}

// value reads zone's key from the sink's get_climate structure.
func value(s *storeSink, zone, key string) (any, bool) {
	z, ok := s.Snapshot().Climate[zone]
	if !ok {
		return nil, false
	}
	v, ok := z[key]
	return v, ok
}
