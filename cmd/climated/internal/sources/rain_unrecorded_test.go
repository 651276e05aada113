package sources

import (
	"context"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/station"
)

// rainHub is a real hub on a SQLite file in a folder, with the rain it
// kept summed by its OnRecord listener.
type rainHub struct {
	h    *hub.Hub
	mu   sync.Mutex
	rain float64
}

func newRainHub(t *testing.T, dir string) *rainHub {
	t.Helper()
	h, err := hub.Open(context.Background(), filepath.Join(dir, "climate.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(context.Background()) })
	a := &rainHub{h: h}
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

func (a *rainHub) total() float64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.rain
}

// source is a station source recording into sink (the hub, or a wrapper
// of it) and restoring its gauges as addStation's does, served on
// loopback.
func (a *rainHub) source(t *testing.T, sink sensors.Sink) (*station.Source, *httptest.Server) {
	t.Helper()
	src := station.NewSource(station.Config{Zones: map[string]string{"outdoor": "Garden"}}, stationState(a.h), sink,
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	srv := httptest.NewServer(src.Handler())
	t.Cleanup(func() { srv.Close(); src.Close() })
	return src, srv
}

func rainUpload(at time.Time, yearly float64) url.Values {
	return url.Values{"PASSKEY": {"K"}, "dateutc": {at.UTC().Format("2006-01-02 15:04:05")}, "tempf": {"50"},
		"yearlyrainin": {strconv.FormatFloat(yearly, 'f', -1, 64)}}
}

func postUpload(t *testing.T, base string, form url.Values) int {
	t.Helper()
	resp, err := http.PostForm(base+"/data/report/", form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
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

// TestRainOfAnUnrecordedUploadIsKept: three uploads of a station's
// yearly counter, 10, 10.5 and 11 in, of which the hub records nothing
// of the second: every reading refused by a guard of the hub (hub.Admit,
// as the clock guard refuses readings its unset clock stamped), or
// Record failing on the upload's context (as RecordPrepared does with
// the history's queue full and the station's client gone). The rain of
// the second upload is counted by the third all the same: 1 in, 25.4 mm,
// recorded, with or without a restart of the source between them.
func TestRainOfAnUnrecordedUploadIsKept(t *testing.T) {
	const want = 25.4 // 0.5 in + 0.5 in
	now := time.Now()
	t.Run("admit", func(t *testing.T) {
		a := newRainHub(t, t.TempDir())
		var refuse atomic.Bool
		a.h.Admit(func(sensors.Reading) bool { return !refuse.Load() })
		_, srv := a.source(t, a.h)
		if code := postUpload(t, srv.URL, rainUpload(now.Add(-3*time.Minute), 10)); code != 200 {
			t.Fatalf("first upload: %d", code)
		}
		refuse.Store(true)
		code := postUpload(t, srv.URL, rainUpload(now.Add(-2*time.Minute), 10.5))
		refuse.Store(false)
		if code := postUpload(t, srv.URL, rainUpload(now.Add(-time.Minute), 11)); code != 200 {
			t.Fatalf("third upload: %d", code)
		}
		if got := a.total(); math.Abs(got-want) > 1e-6 {
			t.Errorf("rain recorded %.2f mm, want %.2f (the upload refused, answered %d, had its 0.5 in counted by nobody)", got, want, code)
		}
	})
	t.Run("context", func(t *testing.T) {
		a := newRainHub(t, t.TempDir())
		sink := &refusingSink{Hub: a.h}
		_, srv := a.source(t, sink)
		if code := postUpload(t, srv.URL, rainUpload(now.Add(-3*time.Minute), 10)); code != 200 {
			t.Fatalf("first upload: %d", code)
		}
		sink.refuse.Store(true)
		c := &http.Client{Timeout: 300 * time.Millisecond}
		if resp, err := c.PostForm(srv.URL+"/data/report/", rainUpload(now.Add(-2*time.Minute), 10.5)); err == nil {
			resp.Body.Close()
			t.Fatalf("the refused upload answered %d", resp.StatusCode)
		}
		time.Sleep(100 * time.Millisecond) // the handler returns
		if code := postUpload(t, srv.URL, rainUpload(now.Add(-time.Minute), 11)); code != 200 {
			t.Fatalf("third upload: %d", code)
		}
		if got := a.total(); math.Abs(got-want) > 1e-6 {
			t.Errorf("rain recorded %.2f mm, want %.2f: the upload that timed out had its 0.5 in counted by nobody", got, want)
		}
	})
	t.Run("restart", func(t *testing.T) { // the same uploads, with a restart after the refused one
		a := newRainHub(t, t.TempDir())
		var refuse atomic.Bool
		a.h.Admit(func(sensors.Reading) bool { return !refuse.Load() })
		src, srv := a.source(t, a.h)
		postUpload(t, srv.URL, rainUpload(now.Add(-3*time.Minute), 10))
		refuse.Store(true)
		postUpload(t, srv.URL, rainUpload(now.Add(-2*time.Minute), 10.5))
		refuse.Store(false)
		srv.Close()
		src.Close()
		_, srv = a.source(t, a.h)
		if code := postUpload(t, srv.URL, rainUpload(now.Add(-time.Minute), 11)); code != 200 {
			t.Fatalf("third upload: %d", code)
		}
		if got := a.total(); math.Abs(got-want) > 1e-6 {
			t.Errorf("rain recorded %.2f mm, want %.2f", got, want)
		}
	})
}
