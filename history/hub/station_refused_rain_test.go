package hub

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

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/station"
)

// TestStationRainAfterRefusedUploadsCountedOnce: a station uploads its
// yearly rain counter to a real hub whose clock guard (Admit) refuses
// every reading for a run of uploads (the clock not yet right), then
// admits them again. The rain of the refused uploads is counted once,
// by the first admitted upload, and the later ones count only their
// own: the hub records the counter's whole rise, no more, no less.
func TestStationRainAfterRefusedUploadsCountedOnce(t *testing.T) {
	ctx := context.Background()
	h := openTest(t, filepath.Join(t.TempDir(), "h.db"), nil)
	var refusing atomic.Bool
	var mu sync.Mutex
	var rain float64
	h.Admit(func(r sensors.Reading) bool {
		if refusing.Load() {
			return false
		}
		if r.Measurement == sensors.Rain {
			mu.Lock()
			rain += r.Value
			mu.Unlock()
		}
		return true
	})
	src := station.NewSource(station.Config{}, h.SourceState, h, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer src.Close()
	srv := httptest.NewServer(src.Handler())
	defer srv.Close()
	now := time.Now().UTC()
	yearly := 10.0
	send := func(i int) {
		t.Helper()
		form := url.Values{"PASSKEY": {"K"}, "dateutc": {now.Add(time.Duration(i-12) * 20 * time.Second).Format("2006-01-02 15:04:05")},
			"tempf": {"50"}, "yearlyrainin": {strconv.FormatFloat(yearly, 'f', 2, 64)}}
		time.Sleep(1100 * time.Millisecond) // under the upload rate
		resp, err := http.PostForm(srv.URL+"/data/report/", form)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("upload %d: %d", i, resp.StatusCode)
		}
	}
	send(0) // the baseline
	refusing.Store(true)
	for i := 1; i <= 6; i++ {
		yearly += 0.1
		send(i)
	}
	refusing.Store(false)
	for i := 7; i <= 9; i++ {
		yearly += 0.1
		send(i)
	}
	if err := h.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := 0.9 * 25.4; math.Abs(rain-want) > 0.01 {
		t.Errorf("rain recorded %.3f mm, want %.3f (the counter's rise of 0.9 in)", rain, want)
	}
}
