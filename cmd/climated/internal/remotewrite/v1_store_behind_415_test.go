package remotewrite

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang/snappy"
	remote "github.com/prometheus/client_golang/exp/api/remote"
	writev2 "github.com/prometheus/client_golang/exp/api/remote/genproto/v2"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/climated/climated/internal/testutil"
)

// v1Store is a receiver of remote write 1.0 only, as Prometheus and
// VictoriaMetrics before 2.0 are: it reads every body as a 1.0
// WriteRequest whatever its Content-Type, so a 2.0 body (symbols in
// field 4, series in field 5) is an empty request, answered 204 with no
// written count. In front of it, a proxy answers the first spurious
// requests 415. samples counts the 1.0 samples it holds.
type v1Store struct {
	mu       sync.Mutex
	spurious int
	requests int
	v2       int
	samples  int
	srv      *httptest.Server
}

func newV1Store(t *testing.T, spurious int) *v1Store {
	v := &v1Store{spurious: spurious}
	v.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		v.mu.Lock()
		defer v.mu.Unlock()
		v.requests++
		if v.spurious > 0 {
			v.spurious--
			w.WriteHeader(http.StatusUnsupportedMediaType)
			return
		}
		if strings.Contains(r.Header.Get("Content-Type"), "io.prometheus.write.v2") {
			v.v2++
		}
		raw, err := snappy.Decode(nil, body)
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		// 1.0's WriteRequest: field 1 a TimeSeries, others skipped.
		for len(raw) > 0 {
			num, typ, n := protowire.ConsumeTag(raw)
			if n < 0 {
				w.WriteHeader(http.StatusBadRequest)
				return
			}
			raw = raw[n:]
			m := protowire.ConsumeFieldValue(num, typ, raw)
			if m < 0 {
				w.WriteHeader(http.StatusBadRequest)
				return
			}
			if num == 1 && typ == protowire.BytesType {
				ts, _ := protowire.ConsumeBytes(raw)
				for len(ts) > 0 {
					fn, ft, k := protowire.ConsumeTag(ts)
					ts = ts[k:]
					l := protowire.ConsumeFieldValue(fn, ft, ts)
					if fn == 2 {
						v.samples++
					}
					ts = ts[l:]
				}
			}
			raw = raw[m:]
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(v.srv.Close)
	return v
}

func (v *v1Store) held() (samples, requests, v2 int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.samples, v.requests, v.v2
}

// TestV1StoreBehindASpurious415KeepsItsSamples: a store configured as
// 1.0 (protocol 1.0 set by hand) behind a proxy that answers one request
// 415 — a misrouted request, a gateway restarting — then takes 1.0 as
// always. Every reading recorded must reach it: after the 415 the hub
// may not send it 2.0 for good and count the 204 a 1.0 receiver gives an
// unreadable (to it, empty) request as samples written.
func TestV1StoreBehindASpurious415KeepsItsSamples(t *testing.T) {
	st := openHistory(t)
	base := time.Now().Add(-30 * time.Minute).Truncate(time.Minute)
	record(t, st, minutes(base, 5)...)
	v := newV1Store(t, 1)
	s := run(t, st, Config{URL: v.srv.URL, Backfill: time.Hour, Protocol: Protocol1, MaxBackoff: time.Second})
	testutil.WaitFor(t, "the first batch settled", func() bool { st := s.Status(); return st.Sent+st.Failed >= 10 })
	record(t, st, minutes(base.Add(5*time.Minute), 3)...)
	s.Poke()
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		if n, _, _ := v.held(); n >= 16 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	n, reqs, v2 := v.held()
	got := s.Status()
	if n < 16 {
		t.Errorf("the 1.0 store holds %d samples of 16 (%d requests, %d of them 2.0); status sent %d failed %d protocol %s error %q", n, reqs, v2, got.Sent, got.Failed, got.Protocol, got.Error)
	}
}

// TestV1ReferenceStoreBehindASpurious415KeepsItsSamples: the same with
// the Prometheus maintainers' handler taking 1.0 only behind the proxy:
// it answers 2.0 with 415. After the one spurious 415 every later batch
// may not be given up for good.
func TestV1ReferenceStoreBehindASpurious415KeepsItsSamples(t *testing.T) {
	st := openHistory(t)
	base := time.Now().Add(-30 * time.Minute).Truncate(time.Minute)
	record(t, st, minutes(base, 5)...)
	v := &v2Store{requests: map[remote.WriteMessageType]int{}, samples: map[string][]sample{}, types: map[string]writev2.Metadata_MetricType{}}
	h := remote.NewWriteHandler(v, remote.MessageTypes{remote.WriteV1MessageType})
	srv := behind415(t, h, 1)
	s := run(t, st, Config{URL: srv.URL, Backfill: time.Hour, Protocol: Protocol1, MaxBackoff: time.Second})
	testutil.WaitFor(t, "the first batch settled", func() bool { st := s.Status(); return st.Sent+st.Failed >= 10 })
	record(t, st, minutes(base.Add(5*time.Minute), 3)...)
	s.Poke()
	testutil.WaitFor(t, "the second batch settled", func() bool { st := s.Status(); return st.Sent+st.Failed >= 16 })
	v.mu.Lock()
	took := len(v.v1)
	v.mu.Unlock()
	if got := s.Status(); got.Failed != 0 || took < 2 {
		t.Errorf("the 1.0 store took %d 1.0 requests; status sent %d failed %d protocol %s error %q", took, got.Sent, got.Failed, got.Protocol, got.Error)
	}
}
