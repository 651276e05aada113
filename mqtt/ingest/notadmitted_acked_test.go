package ingest

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/sensors"
)

// TestQoS1BatchNotAdmittedIsAckedOnce: QoS 1 messages whose readings
// the hub's guard refuses whole are acknowledged through the durable
// path (journal, commit), each once, without the batch being offered to
// the sink again and again.
func TestQoS1BatchNotAdmittedIsAckedOnce(t *testing.T) {
	rig := newRedeliveryRig(t, filepath.Join(t.TempDir(), "s"), nil)
	var calls atomic.Int32
	sink := &callSink{err: fmt.Errorf("2 readings: %w", sensors.ErrNotAdmitted), calls: &calls}
	msgs := []mqtt.Message{rig.message(1, "sensors/a", false), rig.message(2, "sensors/b", false), rig.message(3, "sensors/c", false)}
	rig.run(t0, sink, msgs...)
	if n := rig.acked.Load(); n != 3 {
		t.Errorf("%d acknowledgements, want 3", n)
	}
	if n := calls.Load(); n > 3 {
		t.Errorf("the sink was offered the refused readings %d times for 3 messages: a loop", n)
	}
}

// callSink answers every Record with err, counting the calls.
type callSink struct {
	errSink
	err   error
	calls *atomic.Int32
}

func (s *callSink) Record(context.Context, sensors.Batch) error {
	s.calls.Add(1)
	return s.err
}
