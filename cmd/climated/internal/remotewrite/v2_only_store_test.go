package remotewrite

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	remote "github.com/prometheus/client_golang/exp/api/remote"
	writev2 "github.com/prometheus/client_golang/exp/api/remote/genproto/v2"

	"github.com/climated/climated/internal/testutil"
)

// v2OnlyStore is the reference handler taking 2.0 only, behind a front
// that answers its first request with first (the written header as
// given, "-" for none) instead of passing it on; every later request
// reaches the store, which answers as a 2.0 receiver does (and 415 to a
// 1.0 request, as client_golang's handler does for a type it does not
// take).
func v2OnlyStore(t *testing.T, firstCode int, firstWritten string) (*v2Store, *httptest.Server, func() int) {
	v := &v2Store{requests: map[remote.WriteMessageType]int{}, samples: map[string][]sample{}, types: map[string]writev2.Metadata_MetricType{}}
	h := remote.NewWriteHandler(v, remote.MessageTypes{remote.WriteV2MessageType})
	var mu sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		first := n == 1
		mu.Unlock()
		if first && firstCode != 0 {
			if firstWritten != "-" {
				w.Header().Set(samplesWritten, firstWritten)
			}
			w.WriteHeader(firstCode)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return v, srv, func() int { mu.Lock(); defer mu.Unlock(); return n }
}

// stored counts the samples the store holds.
func (v *v2Store) stored() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	n := 0
	for _, ss := range v.samples {
		n += len(ss)
	}
	return n
}

// TestV2OnlyStoreLosesNothingAfterAnOddAnswer: a store that takes 2.0
// only (a receiver started with 2.0 alone, or a VictoriaMetrics or
// Prometheus behind a gateway that keeps 2.0) answers one 2.0 request
// oddly — a 2xx from a proxy without the written header, a garbled,
// negative or short count — and then answers as a 2.0 receiver again.
// Every reading recorded must reach it, and none be counted failed: the
// hub may not give the samples up for good because its fallback to 1.0
// met the 415 a 2.0-only receiver gives to 1.0.
func TestV2OnlyStoreLosesNothingAfterAnOddAnswer(t *testing.T) {
	for _, c := range []struct {
		name    string
		code    int
		written string
	}{
		{"no header", http.StatusNoContent, "-"},
		{"garbage", http.StatusNoContent, "lots"},
		{"negative", http.StatusNoContent, "-1"},
		{"short", http.StatusNoContent, "9"},
		{"huge", http.StatusNoContent, "99999999999999999999999"},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := openHistory(t)
			base := time.Now().Add(-30 * time.Minute).Truncate(time.Minute)
			record(t, st, minutes(base, 5)...)
			v, srv, _ := v2OnlyStore(t, c.code, c.written)
			s := run(t, st, Config{URL: srv.URL, Backfill: time.Hour, Protocol: Protocol2, MaxBackoff: time.Second})
			testutil.WaitFor(t, "the first batch settled", func() bool { st := s.Status(); return st.Sent+st.Failed >= 10 })
			record(t, st, minutes(base.Add(5*time.Minute), 3)...)
			s.Poke()
			deadline := time.Now().Add(3 * time.Second)
			for time.Now().Before(deadline) && v.stored() < 16 {
				time.Sleep(50 * time.Millisecond)
			}
			got := s.Status()
			if n := v.stored(); n < 16 || got.Failed != 0 {
				t.Errorf("the 2.0-only store holds %d samples of 16; status sent %d failed %d protocol %s error %q", n, got.Sent, got.Failed, got.Protocol, got.Error)
			}
		})
	}
}
