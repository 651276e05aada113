package remotewrite

import (
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
)

// receiver is an HTTP server on loopback that answers each request with
// the next of its codes (204 once they run out) and keeps what it took.
type receiver struct {
	mu      sync.Mutex
	codes   []int
	tries   int
	headers []http.Header
	took    [][]byte
	srv     *httptest.Server
}

func newReceiver(t *testing.T, codes ...int) *receiver {
	r := &receiver{codes: codes}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		defer r.mu.Unlock()
		r.tries++
		r.headers = append(r.headers, req.Header.Clone())
		code := http.StatusNoContent
		if len(r.codes) > 0 {
			code, r.codes = r.codes[0], r.codes[1:]
		}
		if code == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "1")
		}
		if code/100 == 2 {
			r.took = append(r.took, body)
		}
		w.WriteHeader(code)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// run starts a sender of cfg on st until the test ends.
func run(t *testing.T, st History, cfg Config) *Sender {
	t.Helper()
	s, stop := runWith(t, st, Options{Config: cfg, CommitInterval: time.Second, Hostname: "hub"})
	t.Cleanup(stop)
	return s
}

// runWith starts a sender of o on st until stop.
func runWith(t *testing.T, st History, o Options) (s *Sender, stop func()) {
	t.Helper()
	s, err := New(context.Background(), st, o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); s.Run(ctx) }()
	return s, func() { cancel(); <-done; s.Close() }
}

// TestSends: the readings go in one request with the protocol's headers
// and the token from its file,
// as /metrics names them, at their own times; an amount as its counter.
func TestSends(t *testing.T) {
	st := openHistory(t)
	base := time.Now().Add(-30 * time.Minute).Truncate(time.Minute)
	record(t, st, minutes(base, 10)...)
	r := newReceiver(t)
	token := filepath.Join(t.TempDir(), "token")
	os.WriteFile(token, []byte("s3cret\n"), 0o600)
	s := run(t, st, Config{URL: r.srv.URL + "/api/v1/write", Backfill: time.Hour, BearerTokenFile: token, Labels: map[string]string{"house": "cabin", "job": ""}})
	testutil.WaitFor(t, "up to date", func() bool { return s.Status().State == StateUpToDate })
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.took) != 1 {
		t.Fatalf("%d requests taken, want 1", len(r.took))
	}
	h := r.headers[0]
	for k, v := range map[string]string{"Authorization": "Bearer s3cret", "Content-Encoding": "snappy", "Content-Type": "application/x-protobuf", "X-Prometheus-Remote-Write-Version": "0.1.0"} {
		if h.Get(k) != v {
			t.Errorf("%s: %q, want %q", k, h.Get(k), v)
		}
	}
	got := decode(t, r.took[0])
	temp := got["__name__=climated_temperature_celsius,house=cabin,instance=hub,simulated=false,source=test,zone=Cabin,"]
	rain := got["__name__=climated_rain_meters_total,house=cabin,instance=hub,simulated=false,source=test,zone=Cabin,"]
	if len(got) != 2 || len(temp) != 10 || len(rain) != 10 {
		t.Fatalf("series: %v", got)
	}
	for i := range 10 {
		ms := base.Add(time.Duration(i) * time.Minute).UnixMilli()
		if temp[i].ms != ms || rain[i].ms != ms || math.Abs(temp[i].value-(20+float64(i)/10)) > 1e-9 || math.Abs(rain[i].value-float64(i+1)*0.0002) > 1e-12 {
			t.Errorf("minute %d: %+v %+v", i, temp[i], rain[i])
		}
	}
}

// TestRetriesAndGivesUp: 503 and 429 are tried again with the same
// samples until the store takes them, once; a 400 gives the batch up
// (counted as failed), and the readings after it go on.
func TestRetriesAndGivesUp(t *testing.T) {
	st := openHistory(t)
	base := time.Now().Add(-30 * time.Minute).Truncate(time.Minute)
	record(t, st, minutes(base, 5)...)
	r := newReceiver(t, http.StatusServiceUnavailable, http.StatusTooManyRequests, http.StatusNoContent, http.StatusBadRequest)
	s := run(t, st, Config{URL: r.srv.URL, Backfill: time.Hour, MaxBackoff: time.Second})
	testutil.WaitFor(t, "up to date", func() bool { return s.Status().State == StateUpToDate })
	record(t, st, minutes(base.Add(10*time.Minute), 3)...)
	s.Poke()
	testutil.WaitFor(t, "the 400 given up", func() bool { st := s.Status(); return st.Failed == 6 && st.State == StateUpToDate })
	r.mu.Lock()
	defer r.mu.Unlock()
	if st := s.Status(); r.tries != 4 || len(r.took) != 1 || st.Sent != 10 || st.Failures != 3 {
		t.Errorf("%d tries, %d taken, status %+v; want 4 tries, one taken, 10 sent, 3 failures", r.tries, len(r.took), st)
	}
	if got := decode(t, r.took[0]); len(got) != 2 {
		t.Errorf("taken: %v", got)
	}
	kept, err := ReadKept(context.Background(), st.Path(), r.srv.URL)
	if err != nil || kept.Sent != 10 || kept.Failed != 6 || kept.Position.T != base.Add(12*time.Minute).Unix() {
		t.Errorf("kept %+v, %v", kept, err)
	}
}

// TestSendsOnceOldEnough: a reading committed (Poke, as the hub's flush
// does) before it is delay old is sent once it is, with the interval far
// off, and not before.
func TestSendsOnceOldEnough(t *testing.T) {
	st := openHistory(t)
	r := newReceiver(t)
	s := run(t, st, Config{URL: r.srv.URL, Delay: 2 * time.Second, Interval: time.Hour})
	testutil.WaitFor(t, "up to date", func() bool { return s.Status().State == StateUpToDate })
	at := time.Now()
	record(t, st, minutes(at, 1)...)
	s.Poke()
	testutil.WaitFor(t, "the reading sent", func() bool { return s.Status().Sent == 2 })
	if took := time.Since(at); took < 2*time.Second || took > 8*time.Second {
		t.Errorf("sent %s after it was read, want once it was 2 s old", took)
	}
}

// TestHoldsWhileFlushesFail: while the history's flushes fail (Hold), no
// reading from the last good flush on is sent, so that the cursor cannot
// pass readings held in memory; Release lets them go.
func TestHoldsWhileFlushesFail(t *testing.T) {
	st := openHistory(t)
	base := time.Now().Add(-30 * time.Minute).Truncate(time.Minute)
	record(t, st, minutes(base, 5)...)
	r := newReceiver(t)
	s, err := New(context.Background(), st, Options{Config: Config{URL: r.srv.URL, Backfill: time.Hour}, CommitInterval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	s.Hold(base.Add(2 * time.Minute))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); s.Run(ctx) }()
	defer func() { cancel(); <-done; s.Close() }()
	testutil.WaitFor(t, "up to the hold", func() bool { return s.Status().State == StateUpToDate })
	if got := s.Status().Sent; got != 4 {
		t.Fatalf("sent %d samples while held at the third minute, want the first two minutes' 4", got)
	}
	s.Release()
	s.Poke()
	testutil.WaitFor(t, "the rest sent", func() bool { return s.Status().Sent == 10 })
}
