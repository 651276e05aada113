package station

import (
	"context"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/sensors"
)

// atkHub is a real hub on a SQLite file, with the rain it kept summed by
// its OnRecord listener, and a station source wired to it as
// cmd/climated/internal/sources.addStation wires one (Flush, then the
// committed state).
type atkHub struct {
	h    *hub.Hub
	mu   sync.Mutex
	rain float64
}

func newAtkHub(t *testing.T) *atkHub {
	t.Helper()
	h, err := hub.Open(context.Background(), filepath.Join(t.TempDir(), "climate.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(context.Background()) })
	a := &atkHub{h: h}
	h.OnRecord(func(_ context.Context, rs []sensors.Reading) {
		a.mu.Lock()
		defer a.mu.Unlock()
		for _, r := range rs {
			if r.Measurement == sensors.Rain {
				a.rain += r.Value
			}
		}
	})
	return a
}

func (a *atkHub) state(ctx context.Context, key string) (string, bool, error) {
	if err := a.h.Flush(ctx); err != nil {
		return "", false, err
	}
	return a.h.SourceState(ctx, key)
}

func (a *atkHub) total() float64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.rain
}

// source is a station source recording into sink (the hub, or a wrapper
// of it), served on loopback.
func (a *atkHub) source(t *testing.T, sink sensors.Sink) (*Source, *httptest.Server) {
	t.Helper()
	src := NewSource(Config{Zones: map[string]string{"outdoor": "Garden"}}, a.state, sink, slog.New(slog.NewTextHandler(io.Discard, nil)))
	srv := httptest.NewServer(src.Handler())
	t.Cleanup(func() { srv.Close(); src.Close() })
	return src, srv
}

func atkUpload(at time.Time, yearly float64) url.Values {
	return url.Values{"PASSKEY": {"K"}, "dateutc": {at.UTC().Format("2006-01-02 15:04:05")}, "tempf": {"50"}, "yearlyrainin": {fmtF(yearly)}}
}

// refusingSink is the hub, refusing one Record the way the hub's own
// path does: once, it waits for the upload's context to end (the
// history's queue full, RecordPrepared blocked on it) and returns its
// error.
type refusingSink struct {
	*hub.Hub
	refuse atomic.Bool
}

func (s *refusingSink) Record(ctx context.Context, b sensors.Batch) error {
	if s.refuse.CompareAndSwap(true, false) {
		<-ctx.Done()
		return ctx.Err()
	}
	return s.Hub.Record(ctx, b)
}

// TestAtk47RainOfAnUnrecordedUploadIsLost: an upload whose batch the hub
// does not record (every reading refused by a hub.Admit guard, as the
// clock guard does with readings the hub's unset clock stamped, answered
// 200; or Record failing on the upload's context, as RecordPrepared does
// with the history's queue full) still moves the station's in-memory
// rain gauge on: the next upload counts from there, and the rain of the
// unrecorded one is never recorded, though the history's committed
// gauge state still says it is not. The same uploads with a restart (or
// a reload) after the unrecorded one count it: 1 in either way, 0.5 in
// without the restart.
func TestAtk47RainOfAnUnrecordedUploadIsLost(t *testing.T) {
	const want = 25.4 // 0.5 in + 0.5 in
	now := time.Now()
	t.Run("admit", func(t *testing.T) {
		a := newAtkHub(t)
		var refuse atomic.Bool
		a.h.Admit(func(sensors.Reading) bool { return !refuse.Load() })
		_, srv := a.source(t, a.h)
		if code := post(t, srv.URL, atkUpload(now.Add(-3*time.Minute), 10)); code != 200 {
			t.Fatalf("first upload: %d", code)
		}
		refuse.Store(true)
		code := post(t, srv.URL, atkUpload(now.Add(-2*time.Minute), 10.5))
		refuse.Store(false)
		if code := post(t, srv.URL, atkUpload(now.Add(-time.Minute), 11)); code != 200 {
			t.Fatalf("third upload: %d", code)
		}
		if got := a.total(); math.Abs(got-want) > 1e-6 {
			t.Errorf("rain recorded %.2f mm, want %.2f (the upload refused, answered %d, had its 0.5 in counted by nobody)", got, want, code)
		}
	})
	t.Run("context", func(t *testing.T) {
		a := newAtkHub(t)
		sink := &refusingSink{Hub: a.h}
		_, srv := a.source(t, sink)
		if code := post(t, srv.URL, atkUpload(now.Add(-3*time.Minute), 10)); code != 200 {
			t.Fatalf("first upload: %d", code)
		}
		sink.refuse.Store(true)
		c := &http.Client{Timeout: 300 * time.Millisecond}
		if resp, err := c.PostForm(srv.URL+"/data/report/", atkUpload(now.Add(-2*time.Minute), 10.5)); err == nil {
			resp.Body.Close()
			t.Fatalf("the refused upload answered %d", resp.StatusCode)
		}
		time.Sleep(100 * time.Millisecond) // the handler returns
		if code := post(t, srv.URL, atkUpload(now.Add(-time.Minute), 11)); code != 200 {
			t.Fatalf("third upload: %d", code)
		}
		if got := a.total(); math.Abs(got-want) > 1e-6 {
			t.Errorf("rain recorded %.2f mm, want %.2f: the upload that timed out had its 0.5 in counted by nobody", got, want)
		}
	})
	t.Run("restart", func(t *testing.T) { // the same uploads, with a restart after the refused one
		a := newAtkHub(t)
		var refuse atomic.Bool
		a.h.Admit(func(sensors.Reading) bool { return !refuse.Load() })
		src, srv := a.source(t, a.h)
		post(t, srv.URL, atkUpload(now.Add(-3*time.Minute), 10))
		refuse.Store(true)
		post(t, srv.URL, atkUpload(now.Add(-2*time.Minute), 10.5))
		refuse.Store(false)
		srv.Close()
		src.Close()
		_, srv = a.source(t, a.h)
		if code := post(t, srv.URL, atkUpload(now.Add(-time.Minute), 11)); code != 200 {
			t.Fatalf("third upload: %d", code)
		}
		if got := a.total(); math.Abs(got-want) > 1e-6 {
			t.Errorf("rain recorded %.2f mm, want %.2f", got, want)
		}
	})
}
