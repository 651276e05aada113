package remotewrite

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	remote "github.com/prometheus/client_golang/exp/api/remote"
	writev2 "github.com/prometheus/client_golang/exp/api/remote/genproto/v2"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// frontedV2Store is the reference 2.0-only handler behind a front whose
// answers (code, Retry-After) go first, one a request, before requests
// reach the store.
func frontedV2Store(t *testing.T, codes ...int) (*v2Store, string) {
	v := &v2Store{requests: map[remote.WriteMessageType]int{}, samples: map[string][]sample{}, types: map[string]writev2.Metadata_MetricType{}}
	h := remote.NewWriteHandler(v, remote.MessageTypes{remote.WriteV2MessageType})
	var mu sync.Mutex
	tries := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		tries++
		var code int
		if len(codes) > 0 {
			code, codes = codes[0], codes[1:]
		}
		mu.Unlock()
		if code != 0 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(code)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return v, srv.URL
}

// TestV2RetriesKeepV2AndCountOnce: a 2.0 store that answers 429 and 503
// with Retry-After before it takes the batch gets it in 2.0, each sample
// once, and the sender stays at 2.0.
func TestV2RetriesKeepV2AndCountOnce(t *testing.T) {
	st := openHistory(t)
	base := time.Now().Add(-30 * time.Minute).Truncate(time.Minute)
	record(t, st, minutes(base, 5)...)
	v, url := frontedV2Store(t, http.StatusTooManyRequests, http.StatusServiceUnavailable)
	s := run(t, st, Config{URL: url, Backfill: time.Hour, Protocol: Protocol2, MaxBackoff: 2 * time.Second})
	testutil.WaitFor(t, "up to date", func() bool { st := s.Status(); return st.State == StateUpToDate && st.Sent == 10 })
	if n := v.stored(); n != 10 {
		t.Errorf("the store holds %d samples, want 10", n)
	}
	if got := s.Status(); got.Protocol != Protocol2 || got.Failed != 0 {
		t.Errorf("status %+v", got)
	}
}

// TestV2MoreWrittenThanSentIsTaken: a receiver that says it wrote more
// samples than sent (it counts another request's, or adds its own) has
// the batch taken, once, in 2.0.
func TestV2MoreWrittenThanSentIsTaken(t *testing.T) {
	st := openHistory(t)
	base := time.Now().Add(-30 * time.Minute).Truncate(time.Minute)
	record(t, st, minutes(base, 5)...)
	r := newReceiver(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set(samplesWritten, "1000")
		r.srv.Config.Handler.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)
	s := run(t, st, Config{URL: srv.URL, Backfill: time.Hour, Protocol: Protocol2})
	testutil.WaitFor(t, "up to date", func() bool { st := s.Status(); return st.State == StateUpToDate && st.Sent == 10 })
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.tries != 1 || s.Status().Protocol != Protocol2 {
		t.Errorf("%d requests, protocol %s; want one, 2.0", r.tries, s.Status().Protocol)
	}
}

// TestV2SymbolsOfManySeriesAndNamesAsValues: a batch of 400 series
// whose zones and sources are named as labels are ("zone", "source",
// "__name__", "instance", "simulated"), or hold non-ASCII, reaches the
// reference receiver with every series' labels as its own, none mixed
// up through the shared table of strings.
func TestV2SymbolsOfManySeriesAndNamesAsValues(t *testing.T) {
	st := openHistory(t)
	at := time.Now().Add(-30 * time.Minute).Truncate(time.Minute)
	odd := []string{"zone", "source", "__name__", "instance", "simulated", "climated", "hub", "Küche", "温室", "false", "0"}
	var rs []sensors.Reading
	var want []string
	for i := range 200 {
		zone := fmt.Sprintf("z%d", i)
		src := fmt.Sprintf("s%d", i)
		if i < len(odd) {
			zone = odd[i]
			src = odd[len(odd)-1-i]
		}
		rs = append(rs, sensors.Reading{Zone: zone, Measurement: sensors.Temperature, Value: float64(i) / 10, Time: at, Source: src},
			sensors.Reading{Zone: zone, Measurement: sensors.Humidity, Value: float64(i % 100), Time: at, Source: src})
		for _, name := range []string{"climated_temperature_celsius", "climated_humidity_ratio"} {
			want = append(want, fmt.Sprintf("__name__=%s,instance=hub,job=climated,simulated=false,source=%s,zone=%s,", name, src, zone))
		}
	}
	record(t, st, rs...)
	v, url := frontedV2Store(t)
	s := run(t, st, Config{URL: url, Backfill: time.Hour, Protocol: Protocol2, BatchSize: 1000})
	testutil.WaitFor(t, "up to date", func() bool { st := s.Status(); return st.State == StateUpToDate && st.Sent == 400 })
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.samples) != 400 {
		var keys []string
		for k := range v.samples {
			keys = append(keys, k)
		}
		t.Fatalf("%d series, want 400: %s", len(v.samples), strings.Join(keys[:min(5, len(keys))], " "))
	}
	for _, k := range want {
		if len(v.samples[k]) != 1 {
			t.Errorf("series %s: %v", k, v.samples[k])
		}
	}
}
