package dash_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/dash"
	"github.com/climated/climated/sensors"
)

// openStream reads the first event of /dash/events; the stream stays open
// until the test ends.
func openStream(t *testing.T, base string) (*http.Response, *bufio.Reader) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/dash/events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res, bufio.NewReader(res.Body)
}

// nextData returns the data line of the next event.
func nextData(t *testing.T, br *bufio.Reader) string {
	t.Helper()
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("read event: %v", err)
		}
		if d, ok := strings.CutPrefix(line, "data: "); ok {
			return d
		}
	}
}

// TestLiveEvent: a reading recorded into the store reaches an open stream.
func TestLiveEvent(t *testing.T) {
	store, _ := demoStore(t, time.Hour)
	base := serve(t, "127.0.0.1", newDash(t, dash.StoreSource{Store: store, StaleAfter: time.Hour}, &dash.Options{Simulated: true}))
	res, br := openStream(t, base)
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	if first := nextData(t, br); !strings.Contains(first, `"simulated":true`) || !strings.Contains(first, `"Balcony"`) {
		t.Fatalf("first event: %.200s", first)
	}
	r := sensors.Reading{Zone: "Indoor", Measurement: sensors.Temperature, Value: 42.4, Time: time.Now(), Source: "test"}
	if err := store.Record(context.Background(), sensors.Batch{Readings: []sensors.Reading{r}}); err != nil {
		t.Fatal(err)
	}
	if next := nextData(t, br); !strings.Contains(next, `"Temperature":42.4`) {
		t.Errorf("event after a reading: %.300s", next)
	}
}

// bigHouse is a Source whose structure is large, so that a client that
// reads nothing fills the socket buffers in a few events.
type bigHouse struct{ change chan func() }

func (b bigHouse) Climate() []byte {
	return []byte(fmt.Sprintf(`{"Indoor":{"pad":%q,"When":%d}}`, strings.Repeat("x", 1<<20), time.Now().UnixNano()))
}
func (b bigHouse) Zones() []dash.Zone { return nil }
func (b bigHouse) Range(context.Context, string, string, time.Time, time.Time, bool, int) (any, error) {
	return nil, nil
}
func (b bigHouse) OnChange(f func()) { b.change <- f }

// TestSlowClientDropped: a client that stops reading is dropped after the
// write deadline, and its slot is free again.
func TestSlowClientDropped(t *testing.T) {
	src := bigHouse{change: make(chan func(), 1)}
	h := newDash(t, src, &dash.Options{WriteTimeout: 300 * time.Millisecond})
	changed := <-src.change
	base := serve(t, "127.0.0.1", h)
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.(*net.TCPConn).SetReadBuffer(4096)
	fmt.Fprintf(conn, "GET /dash/events HTTP/1.1\r\nHost: %s\r\n\r\n", strings.TrimPrefix(base, "http://"))
	deadline := time.Now().Add(10 * time.Second)
	for seen := false; ; {
		n := h.Streams()
		seen = seen || n == 1
		if seen && n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("a client that reads nothing still holds a stream after 10 s (streams %d, seen %v)", n, seen)
		}
		changed()
		time.Sleep(20 * time.Millisecond)
	}
}
