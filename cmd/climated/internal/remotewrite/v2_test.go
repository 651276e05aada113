package remotewrite

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang/snappy"
	remote "github.com/prometheus/client_golang/exp/api/remote"
	writev2 "github.com/prometheus/client_golang/exp/api/remote/genproto/v2"
	"google.golang.org/protobuf/proto"

	"github.com/climated/climated/internal/testutil"
)

// v2Store is the storage behind the Prometheus maintainers' own
// remote-write handler (client_golang/exp/api/remote): it keeps each
// series' samples and metric type as a 2.0 request gives them, and says
// how many samples it wrote, as a 2.0 receiver does.
type v2Store struct {
	mu       sync.Mutex
	requests map[remote.WriteMessageType]int
	samples  map[string][]sample // series (its labels as name=value,…) → samples
	types    map[string]writev2.Metadata_MetricType
	bad      []string // what the request got wrong
	short    int      // how many samples fewer than it took it says it wrote
	v1       [][]byte // the 1.0 requests it took, when it takes them
}

func (v *v2Store) Store(req *http.Request, typ remote.WriteMessageType) (*remote.WriteResponse, error) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.requests[typ]++
	resp := remote.NewWriteResponse()
	if typ != remote.WriteV2MessageType {
		v.v1 = append(v.v1, snappy.Encode(nil, body))
		return resp, nil
	}
	var r writev2.Request
	if err := proto.Unmarshal(body, &r); err != nil {
		resp.SetStatusCode(http.StatusBadRequest)
		return resp, err
	}
	if len(r.Symbols) == 0 || r.Symbols[0] != "" {
		v.bad = append(v.bad, fmt.Sprintf("symbols start with %q, want \"\"", r.Symbols))
	}
	for _, ts := range r.Timeseries {
		ls := writev2.DesymbolizeLabels(ts.LabelsRefs, r.Symbols, nil)
		var key strings.Builder
		for i := 0; i+1 < len(ls); i += 2 {
			fmt.Fprintf(&key, "%s=%s,", ls[i], ls[i+1])
		}
		for _, s := range ts.Samples {
			v.samples[key.String()] = append(v.samples[key.String()], sample{value: s.Value, ms: s.Timestamp})
		}
		v.types[key.String()] = ts.GetMetadata().GetType()
		resp.Samples += len(ts.Samples)
	}
	resp.Samples -= v.short
	return resp, nil
}

// newV2Receiver serves the reference handler, taking the message types
// accepted, on loopback until the test ends; headers has each request's.
func newV2Receiver(t *testing.T, accepted ...remote.WriteMessageType) (*v2Store, *httptest.Server, *[]http.Header) {
	v := &v2Store{requests: map[remote.WriteMessageType]int{}, samples: map[string][]sample{}, types: map[string]writev2.Metadata_MetricType{}}
	h := remote.NewWriteHandler(v, remote.MessageTypes(accepted))
	var mu sync.Mutex
	var headers []http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		headers = append(headers, r.Header.Clone())
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return v, srv, &headers
}

// TestSendsV2ToTheReferenceReceiver: with protocol 2.0, a store served
// by the Prometheus maintainers' own 2.0 handler gets every reading, with
// its labels, value and time exactly, the temperature as a gauge and the
// rain as a counter, in 2.0 requests with 2.0's headers; nothing falls
// back to 1.0.
func TestSendsV2ToTheReferenceReceiver(t *testing.T) {
	st := openHistory(t)
	base := time.Now().Add(-30 * time.Minute).Truncate(time.Minute)
	record(t, st, minutes(base, 10)...)
	v, srv, headers := newV2Receiver(t, remote.WriteV2MessageType)
	s := run(t, st, Config{URL: srv.URL + "/api/v1/write", Backfill: time.Hour, Protocol: Protocol2, Labels: map[string]string{"house": "cabin", "job": ""}})
	testutil.WaitFor(t, "up to date", func() bool { st := s.Status(); return st.State == StateUpToDate && st.Sent == 20 })
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.requests[remote.WriteV2MessageType] != 1 || len(v.requests) != 1 || len(v.bad) > 0 {
		t.Errorf("requests %v, wrong: %q; want one 2.0 request", v.requests, v.bad)
	}
	for k, want := range map[string]string{"Content-Type": "application/x-protobuf;proto=io.prometheus.write.v2.Request", "X-Prometheus-Remote-Write-Version": "2.0.0"} {
		if got := (*headers)[0].Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	temp := "__name__=climated_temperature_celsius,house=cabin,instance=hub,simulated=false,source=test,zone=Cabin,"
	rain := "__name__=climated_rain_meters_total,house=cabin,instance=hub,simulated=false,source=test,zone=Cabin,"
	if len(v.samples) != 2 || len(v.samples[temp]) != 10 || len(v.samples[rain]) != 10 {
		t.Fatalf("series: %v", v.samples)
	}
	if v.types[temp] != writev2.Metadata_METRIC_TYPE_GAUGE || v.types[rain] != writev2.Metadata_METRIC_TYPE_COUNTER {
		t.Errorf("metric types %v", v.types)
	}
	for i := range 10 {
		ms := base.Add(time.Duration(i) * time.Minute).UnixMilli()
		tp, rn := v.samples[temp][i], v.samples[rain][i]
		if tp.ms != ms || rn.ms != ms || math.Abs(tp.value-(20+float64(i)/10)) > 1e-9 || math.Abs(rn.value-float64(i+1)*0.0002) > 1e-12 {
			t.Errorf("minute %d: %+v %+v", i, tp, rn)
		}
	}
	if p := s.Status().Protocol; p != Protocol2 {
		t.Errorf("protocol %q, want 2.0 still", p)
	}
}

// TestV2FallsBackOn415: a store that answers a 2.0 request 415, as a
// receiver that checks the content type and takes 1.0 only does, gets
// the same samples again in 1.0, once each; the hub logs why, and the
// fix.
func TestV2FallsBackOn415(t *testing.T) {
	st := openHistory(t)
	base := time.Now().Add(-30 * time.Minute).Truncate(time.Minute)
	record(t, st, minutes(base, 5)...)
	r := newReceiver(t, http.StatusUnsupportedMediaType)
	var log bytes.Buffer
	var logMu sync.Mutex
	s, stop := runWith(t, st, Options{Config: Config{URL: r.srv.URL, Backfill: time.Hour, Protocol: Protocol2}, CommitInterval: time.Second, Hostname: "hub",
		Logger: slog.New(slog.NewTextHandler(&lockedWriter{w: &log, mu: &logMu}, nil))})
	defer stop()
	testutil.WaitFor(t, "up to date", func() bool { st := s.Status(); return st.State == StateUpToDate && st.Sent == 10 })
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.tries != 2 || len(r.took) != 1 || r.headers[1].Get("Content-Type") != "application/x-protobuf" {
		t.Fatalf("%d tries, %d taken (%v); want a 2.0 request refused and a 1.0 one taken", r.tries, len(r.took), r.headers)
	}
	if got := decode(t, r.took[0]); len(got) != 2 {
		t.Errorf("taken in 1.0: %v", got)
	}
	logMu.Lock()
	defer logMu.Unlock()
	if !strings.Contains(log.String(), "set protocol: 1.0") || !strings.Contains(log.String(), "415") || strings.Count(log.String(), "took a 2.0 request") != 1 {
		t.Errorf("log: %s", log.String())
	}
	if p := s.Status().Protocol; p != Protocol1 {
		t.Errorf("protocol %q, want 1.0 after the fallback", p)
	}
}

// TestV2FallsBackWhenFewerWritten: a receiver of both versions that
// says it wrote fewer samples of a 2.0 request than it was sent is sent
// the same samples again in 1.0, which it takes: each sample counted as
// sent once, the cursor past them, 1.0 from then on.
func TestV2FallsBackWhenFewerWritten(t *testing.T) {
	st := openHistory(t)
	base := time.Now().Add(-30 * time.Minute).Truncate(time.Minute)
	record(t, st, minutes(base, 5)...)
	v, srv, _ := newV2Receiver(t, remote.WriteV1MessageType, remote.WriteV2MessageType)
	v.short = 1
	s := run(t, st, Config{URL: srv.URL, Backfill: time.Hour, Protocol: Protocol2})
	testutil.WaitFor(t, "up to date", func() bool { st := s.Status(); return st.State == StateUpToDate && st.Sent == 10 })
	record(t, st, minutes(base.Add(5*time.Minute), 2)...)
	s.Poke()
	testutil.WaitFor(t, "the next readings sent", func() bool { return s.Status().Sent == 14 })
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.requests[remote.WriteV2MessageType] != 1 || len(v.v1) != 2 {
		t.Fatalf("requests %v; want one 2.0 request, then 1.0 ones", v.requests)
	}
	first, second := decode(t, v.v1[0]), decode(t, v.v1[1])
	if len(first) != 2 || len(second) != 2 {
		t.Fatalf("1.0 requests: %v, %v", first, second)
	}
	for key, ss := range first {
		if len(ss) != 5 || len(second[key]) != 2 || ss[0].ms != base.UnixMilli() || second[key][0].ms != base.Add(5*time.Minute).UnixMilli() {
			t.Errorf("%s: %+v then %+v; want the 5 minutes again in 1.0, then the 2 after", key, ss, second[key])
		}
	}
	if got := s.Status(); got.Protocol != Protocol1 || got.Sent != 14 {
		t.Errorf("status %+v", got)
	}
}

// lockedWriter is w under mu, for a log read while the sender writes.
type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
