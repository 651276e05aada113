package ingest

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/mqtt/decode"
	"github.com/climated/climated/sensors"
)

// flushSink is a recSink that the ingest can flush, as it can the history.
type flushSink struct {
	recSink
	flushes atomic.Int32
}

// A message the broker delivers again after a restart: one already
// committed is not recorded again (neither its gauge nor its rain); one
// whose commit was cut short is recorded at its first arrival's time, which
// the history's (series, second) key makes harmless; one never journalled
// is recorded as new.
func TestRedeliveryRecordedOnce(t *testing.T) {
	rig := newRedeliveryRig(t, filepath.Join(t.TempDir(), "s"), nil)
	message := rig.message
	run := func(now time.Time, msgs ...mqtt.Message) *flushSink {
		sink := &flushSink{}
		rig.run(now, sink, msgs...)
		return sink
	}
	first := run(t0, message(1, "sensors/committed", false), message(2, "sensors/cut", false))
	if got := len(first.readings); got != 4 {
		t.Fatalf("first run recorded %d readings, want 4", got)
	}
	// Killed between the begin and the commit of sensors/cut's batch.
	sess, _ := journalAt(rig.path)
	k := mqtt.MessageKey(message(2, "sensors/cut", true))
	sess.Hold(k, t0)
	sess.Begin([]mqtt.DeliveryKey{k})

	later := t0.Add(time.Hour)
	second := run(later, message(1, "sensors/committed", true), message(2, "sensors/cut", true),
		message(3, "sensors/never", true))
	want := map[string]time.Time{"sensors/cut": t0, "sensors/never": later}
	for _, r := range second.readings {
		at, ok := want[r.Zone]
		if !ok || !r.Time.Equal(at) {
			t.Errorf("recorded %s %s at %s", r.Zone, r.Measurement, r.Time.Format(time.TimeOnly))
		}
	}
	if len(second.readings) != 4 {
		t.Errorf("second run recorded %d readings, want 4 (CO2 and rain of sensors/cut and sensors/never)", len(second.readings))
	}
	if second.flushes.Load() == 0 {
		t.Error("acknowledged without a flush")
	}
}

// redeliveryRig runs an ingest on one session file, a run at a time, as a
// hub restarted between runs would: each run hands its messages to the
// handler and stops once the broker would have had every acknowledgement.
type redeliveryRig struct {
	t       *testing.T
	path    string
	marked  func(context.Context, []string) (map[string]bool, error)
	mapping Mapping
	acked   atomic.Int32
}

func newRedeliveryRig(t *testing.T, path string, marked func(context.Context, []string) (map[string]bool, error)) *redeliveryRig {
	return &redeliveryRig{t: t, path: path, marked: marked, mapping: Mapping{Topic: "sensors/+", Format: "generic", AutoZone: true,
		Fields: []decode.Field{{Measurement: sensors.CO2, Path: "co2"}, {Measurement: sensors.Rain, Path: "rain"}}}}
}

// message is a QoS 1 delivery of CO2 600 ppm and 0.4 mm of rain.
func (r *redeliveryRig) message(id uint16, topic string, dup bool) mqtt.Message {
	return mqtt.Message{Topic: topic, Payload: []byte(`{"co2":600,"rain":0.4}`), QoS: 1, ID: id, Duplicate: dup}.
		WithAck(func() { r.acked.Add(1) })
}

func (r *redeliveryRig) run(now time.Time, sink sensors.Sink, msgs ...mqtt.Message) {
	t := r.t
	t.Helper()
	sess, err := journalAt(r.path)
	if err != nil {
		t.Fatal(err)
	}
	in := newTestIngest(t, Options{Now: func() time.Time { return now }, Marked: r.marked}, r.mapping)
	in.journal = sess
	r.acked.Store(0)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- in.Run(ctx, sink) }()
	for _, m := range msgs {
		in.handler(0)(m)
	}
	testutil.WaitFor(t, "the acknowledgements", func() bool { return r.acked.Load() == int32(len(msgs)) })
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func (s *flushSink) Flush(context.Context) error { s.flushes.Add(1); return nil }

// journalAt is the journal of the session file at path, as a client
// opens it.
func journalAt(path string) (*mqtt.Journal, error) {
	c, err := mqtt.NewClient(mqtt.Options{Broker: "tcp://127.0.0.1:1883", SessionFile: path})
	if err != nil {
		return nil, err
	}
	return c.Journal(), nil
}
