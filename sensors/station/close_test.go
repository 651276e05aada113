package station

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// gatedSink holds each Record until release is closed, after saying so
// on entered.
type gatedSink struct {
	*memSink
	entered chan struct{}
	release chan struct{}
}

func (g *gatedSink) Record(ctx context.Context, b sensors.Batch) error {
	g.entered <- struct{}{}
	<-g.release
	return g.memSink.Record(ctx, b)
}

// TestCloseWaitsForUploads: Close returns only once the upload being
// recorded is recorded, and an upload after it is refused with 503 and
// recorded nowhere, so that a reload's new station restores its rain
// gauges from everything the old one counted.
func TestCloseWaitsForUploads(t *testing.T) {
	sink := &gatedSink{memSink: &memSink{states: map[string]string{}}, entered: make(chan struct{}, 1), release: make(chan struct{})}
	src := NewSource(Config{Zones: map[string]string{"outdoor": "Garden"}}, sink.state, sink, slog.New(slog.NewTextHandler(io.Discard, nil)))
	srv := httptest.NewServer(src.Handler())
	defer srv.Close()
	released := false
	defer func() { // before srv.Close, which waits for the upload
		if !released {
			close(sink.release)
		}
	}()
	upload := url.Values{"PASSKEY": {"K"}, "tempf": {"50"}, "dailyrainin": {"0.1"}}
	first := make(chan int, 1)
	go func() { first <- post(t, srv.URL, upload) }()
	<-sink.entered
	closed := make(chan struct{})
	go func() { src.Close(); close(closed) }()
	select {
	case <-closed:
		t.Fatal("Close returned while an upload was being recorded")
	case <-time.After(100 * time.Millisecond):
	}
	close(sink.release)
	released = true
	if code := <-first; code != http.StatusOK {
		t.Errorf("the upload in flight: %d, want 200", code)
	}
	<-closed
	if code := post(t, srv.URL, upload); code != http.StatusServiceUnavailable {
		t.Errorf("an upload after Close: %d, want 503", code)
	}
	if n, _ := sink.sum("Garden", sensors.Temperature); n != 1 {
		t.Errorf("%d temperatures recorded, want the one upload before Close", n)
	}
}
