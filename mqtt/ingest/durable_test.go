package ingest

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/mqtt/decode"
	"github.com/climated/climated/mqtt/internal/clienttest"
	"github.com/climated/climated/mqtt/internal/mqtttest"
	"github.com/climated/climated/sensors"
)

// counterMapping makes every device sensors/<name> a zone of its own with
// its number n as CO2.
var counterMapping = Mapping{Topic: "sensors/+", Format: "generic", AutoZone: true,
	Fields: []decode.Field{{Measurement: sensors.CO2, Path: "n"}}}

// gatedStore is the history with a Flush that waits for the gate to open.
type gatedStore struct {
	*storeSink
	gate    chan struct{}
	flushes atomic.Int32
}

func (s *gatedStore) Flush(ctx context.Context) error {
	select {
	case <-s.gate:
	case <-ctx.Done():
		return ctx.Err()
	}
	s.flushes.Add(1)
	return s.storeSink.Flush(ctx)
}

func sessionOptions(t *testing.T, broker, prefix string) mqtt.Options {
	o := clienttest.FastOptions(broker, prefix)
	o.SessionFile = filepath.Join(t.TempDir(), "climated.db.mqtt")
	return o
}

// QoS 1 messages are acknowledged only once the history has committed
// their readings: while the flush waits, the broker (in-flight window of
// 4) sends no more; once it is done, the rest follows, a commit per
// window, not per message.
func TestMosquittoAckAfterFlush(t *testing.T) {
	m := testutil.NewMosquitto(t, "max_inflight_messages 4")
	m.Start()
	sink := &gatedStore{storeSink: openStore(t), gate: make(chan struct{})}
	c := clienttest.New(t, sessionOptions(t, m.URL(), "climated/ack"))
	in, err := New(c, []Mapping{counterMapping}, &Options{Logger: mqtttest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	clienttest.Run(t, c)
	runIngest(t, in, sink)
	testutil.WaitFor(t, "the connection", func() bool { return c.Sessions() == 1 })
	dev := testutil.MQTTClient(t, m.URL(), "")
	const n = 12
	for i := range n {
		mqtttest.Publish(t, dev, fmt.Sprintf("sensors/s%d", i), 1, false, fmt.Sprintf(`{"n":%d}`, 400+i))
	}
	testutil.WaitFor(t, "the first window", func() bool { return in.Stats().Received == 4 })
	time.Sleep(2 * ackDelay) // long enough for acknowledgements that did not wait
	if got := in.Stats().Received; got != 4 {
		t.Fatalf("%d messages delivered while the flush waits, want the in-flight window of 4", got)
	}
	close(sink.gate)
	testutil.WaitFor(t, "every reading", func() bool { return in.Stats().Readings == n })
	if f := sink.flushes.Load(); f >= n/2 {
		t.Errorf("%d flushes for %d messages in windows of 4: not batched", f, n)
	}
}

// countingStore is the history, counting its commits.
type countingStore struct {
	*storeSink
	flushes atomic.Int32
}

func (s *countingStore) Flush(ctx context.Context) error {
	s.flushes.Add(1)
	return s.storeSink.Flush(ctx)
}

// The readings of a QoS 1 message are live (in the get_climate structure)
// as soon as it arrives, though its acknowledgement waits for a commit an
// hour away (commit_interval): a reading is current when it arrives, only
// its place on disk waits.
func TestMosquittoQoS1LiveBeforeTheCommit(t *testing.T) {
	m := testutil.NewMosquitto(t)
	m.Start()
	sink := &countingStore{storeSink: openStore(t)}
	c := clienttest.New(t, sessionOptions(t, m.URL(), "climated/live"))
	in, err := New(c, []Mapping{counterMapping}, &Options{Logger: mqtttest.Logger(t), CommitWait: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	clienttest.Run(t, c)
	runIngest(t, in, sink)
	testutil.WaitFor(t, "the connection", func() bool { return c.Sessions() == 1 })
	dev := testutil.MQTTClient(t, m.URL(), "")
	const n = ackBatch - 1 // fewer than make a commit at once
	for i := range n {
		mqtttest.Publish(t, dev, fmt.Sprintf("sensors/s%d", i), 1, false, fmt.Sprintf(`{"n":%d}`, 400+i))
	}
	testutil.WaitFor(t, "every reading live", func() bool {
		for i := range n {
			if v, ok := value(sink.storeSink, fmt.Sprintf("sensors/s%d", i), "CO2"); !ok || v != float64(400+i) {
				return false
			}
		}
		return true
	})
	if f := sink.flushes.Load(); f != 0 {
		t.Errorf("%d commits: the readings were live only once committed", f)
	}
}

// With a session file the session is persistent: what is published while
// the hub is away (stopped cleanly here) is queued by the broker and
// recorded at the next start, under the same client id.
func TestMosquittoQueuedWhileAway(t *testing.T) {
	m := testutil.NewMosquitto(t)
	m.Start()
	store := openStore(t)
	opts := sessionOptions(t, m.URL(), "climated/away")
	dev := testutil.MQTTClient(t, m.URL(), "")
	start := func() (*mqtt.Client, *Ingest, func()) {
		c := clienttest.New(t, opts)
		in, err := New(c, []Mapping{counterMapping}, &Options{Logger: mqtttest.Logger(t)})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{}, 2)
		go func() { c.Run(ctx); done <- struct{}{} }()
		go func() { in.Run(ctx, store); done <- struct{}{} }()
		testutil.WaitFor(t, "the connection", func() bool { return c.Sessions() == 1 })
		return c, in, func() { cancel(); <-done; <-done }
	}
	c1, _, stop := start()
	mqtttest.Publish(t, dev, "sensors/before", 1, false, `{"n":500}`)
	testutil.WaitFor(t, "the first reading", func() bool { v, _ := value(store, "sensors/before", "CO2"); return v == 500.0 })
	stop()

	for i := range 5 {
		mqtttest.Publish(t, dev, fmt.Sprintf("sensors/away%d", i), 1, false, fmt.Sprintf(`{"n":%d}`, 510+i))
	}
	c2, in2, stop := start()
	defer stop()
	if c1.ClientID() != c2.ClientID() {
		t.Errorf("client id %q, then %q", c1.ClientID(), c2.ClientID())
	}
	for i := range 5 {
		zone := fmt.Sprintf("sensors/away%d", i)
		testutil.WaitFor(t, zone, func() bool { v, _ := value(store, zone, "CO2"); return v == float64(510+i) })
	}
	if st := in2.Stats(); st.Received != 5 {
		t.Errorf("second run: %+v, want the 5 queued messages", st)
	}
}

// cuttingStore cuts the network right after the history's first commit,
// before the acknowledgements can go out.
type cuttingStore struct {
	*storeSink
	cut  func()
	once sync.Once
}

func (s *cuttingStore) Flush(ctx context.Context) error {
	err := s.storeSink.Flush(ctx)
	s.once.Do(s.cut)
	return err
}

// Messages committed but never acknowledged (the connection broke between
// the two) come again, with DUP, when the session resumes: the journal
// knows them and they are not recorded twice (the rain would count twice).
func TestMosquittoRedeliveryAfterCut(t *testing.T) {
	m := testutil.NewMosquitto(t)
	m.Start()
	p := mqtttest.NewProxy(t, strings.TrimPrefix(m.URL(), "tcp://"))
	store := openStore(t)
	c := clienttest.New(t, sessionOptions(t, p.URL(), "climated/cut"))
	mapping := Mapping{Topic: "sensors/+", Format: "generic", AutoZone: true, Fields: []decode.Field{
		{Measurement: sensors.CO2, Path: "n"}, {Measurement: sensors.Rain, Path: "rain"}}}
	in, err := New(c, []Mapping{mapping}, &Options{Logger: mqtttest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	clienttest.Run(t, c)
	runIngest(t, in, &cuttingStore{storeSink: store, cut: p.Cut})
	testutil.WaitFor(t, "the connection", func() bool { return c.Sessions() == 1 })
	dev := testutil.MQTTClient(t, m.URL(), "")
	for i := range 3 {
		mqtttest.Publish(t, dev, fmt.Sprintf("sensors/r%d", i), 1, false, fmt.Sprintf(`{"n":%d,"rain":1}`, 600+i))
	}
	testutil.WaitFor(t, "the redeliveries", func() bool { return in.Stats().Redelivered == 3 })
	testutil.WaitFor(t, "the reconnection", func() bool { return c.Sessions() == 2 })
	if st := in.Stats(); st.Readings != 6 {
		t.Errorf("%+v, want 6 readings (CO2 and rain of 3 messages) recorded once", st)
	}
	for i := range 3 {
		zone := fmt.Sprintf("sensors/r%d", i)
		if v, _ := value(store, zone, "Rain"); v != 1.0 {
			t.Errorf("%s: rain %v, want 1 mm", zone, v)
		}
	}
}
