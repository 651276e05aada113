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
		return resp, fmt.Errorf("%s: not taken here", typ)
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
