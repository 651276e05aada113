package remotewrite

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	remote "github.com/prometheus/client_golang/exp/api/remote"
	writev2 "github.com/prometheus/client_golang/exp/api/remote/genproto/v2"

	"github.com/climated/climated/internal/testutil"
)

// TestStoreRefusingBothVersionsDropsEachBatchOnce: a store that answers
// 415 to 1.0 and 2.0 alike. The hub may not loop between the versions:
// each batch is given up once, its samples counted failed once, in a
// bounded number of requests.
func TestStoreRefusingBothVersionsDropsEachBatchOnce(t *testing.T) {
	for _, p := range []string{Protocol1, Protocol2} {
		t.Run(p, func(t *testing.T) {
			st := openHistory(t)
			base := time.Now().Add(-30 * time.Minute).Truncate(time.Minute)
			record(t, st, minutes(base, 5)...)
			var mu sync.Mutex
			n := 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				mu.Lock()
				n++
				mu.Unlock()
				w.WriteHeader(http.StatusUnsupportedMediaType)
			}))
			t.Cleanup(srv.Close)
			s := run(t, st, Config{URL: srv.URL, Backfill: time.Hour, Protocol: p, MaxBackoff: time.Second})
			testutil.WaitFor(t, "the first batch settled", func() bool { st := s.Status(); return st.Sent+st.Failed >= 10 })
			record(t, st, minutes(base.Add(5*time.Minute), 3)...)
			s.Poke()
			testutil.WaitFor(t, "the second batch settled", func() bool { st := s.Status(); return st.Sent+st.Failed >= 16 })
			time.Sleep(500 * time.Millisecond)
			got := s.Status()
			mu.Lock()
			reqs := n
			mu.Unlock()
			if got.Failed != 16 || got.Sent != 0 || reqs > 6 {
				t.Errorf("sent %d failed %d (want 0 and 16) in %d requests; protocol %s", got.Sent, got.Failed, reqs, got.Protocol)
			}
		})
	}
}

// TestStoreOfBothVersionsAfterSpurious415sGetsLaterBatches: a store that
// takes 1.0 and 2.0 (the reference handler with both) behind a proxy
// answering its first requests 415: the sender goes on in 1.0 or 2.0, and
// every batch after the 415s reaches it, counted once.
func TestStoreOfBothVersionsAfterSpurious415sGetsLaterBatches(t *testing.T) {
	for _, spurious := range []int{1, 3} {
		t.Run(fmt.Sprint(spurious), func(t *testing.T) {
			st := openHistory(t)
			base := time.Now().Add(-30 * time.Minute).Truncate(time.Minute)
			record(t, st, minutes(base, 5)...)
			v := &v2Store{requests: map[remote.WriteMessageType]int{}, samples: map[string][]sample{}, types: map[string]writev2.Metadata_MetricType{}}
			h := remote.NewWriteHandler(v, remote.MessageTypes{remote.WriteV1MessageType, remote.WriteV2MessageType})
			srv := behind415(t, h, spurious)
			s := run(t, st, Config{URL: srv.URL, Backfill: time.Hour, Protocol: Protocol1, MaxBackoff: time.Second})
			testutil.WaitFor(t, "the first batch settled", func() bool { st := s.Status(); return st.Sent+st.Failed >= 10 })
			record(t, st, minutes(base.Add(5*time.Minute), 3)...)
			s.Poke()
			testutil.WaitFor(t, "the second batch settled", func() bool { st := s.Status(); return st.Sent+st.Failed >= 16 })
			record(t, st, minutes(base.Add(8*time.Minute), 2)...)
			s.Poke()
			testutil.WaitFor(t, "the third batch settled", func() bool { st := s.Status(); return st.Sent+st.Failed >= 20 })
			got := s.Status()
			n := v.stored()
			v.mu.Lock()
			for _, body := range v.v1 {
				for _, ss := range decode(t, body) {
					n += len(ss)
				}
			}
			v.mu.Unlock()
			if n != int(got.Sent) || got.Sent < 4 || got.Sent+got.Failed != 20 {
				t.Errorf("store holds %d samples (1.0 and 2.0); status sent %d failed %d protocol %s", n, got.Sent, got.Failed, got.Protocol)
			}
		})
	}
}
