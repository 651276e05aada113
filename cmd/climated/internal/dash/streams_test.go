package dash_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/dash"
)

// fromAddr is an HTTP client whose connections come from ip, a loopback
// address of its own (all of 127.0.0.0/8 is loopback on Linux): the
// dashboard sees another machine's browser, still on loopback.
func fromAddr(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

// holdStreams opens n live streams from c and keeps them open, never
// reading them, until the test ends; it returns those served and how many
// were refused.
func holdStreams(t *testing.T, c *http.Client, base string, n int) (served []*http.Response, refused int) {
	t.Helper()
	t.Cleanup(func() {
		for _, r := range served {
			r.Body.Close()
		}
	})
	for i := range n {
		res, err := c.Get(base + "/dash/events")
		if err != nil {
			t.Fatalf("stream %d: %v", i+1, err)
		}
		if res.StatusCode != http.StatusOK {
			res.Body.Close()
			refused++
			continue
		}
		served = append(served, res)
	}
	return served, refused
}

// streamEnds reports whether the stream of res ends (the dashboard closed
// it) within a few seconds; the events before are read and dropped.
func streamEnds(res *http.Response) bool {
	done := make(chan struct{})
	go func() {
		io.Copy(io.Discard, res.Body)
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-time.After(5 * time.Second):
		res.Body.Close()
		return false
	}
}

// followsTheHouse opens a stream from ip and reads its first event: the
// state of the house.
func followsTheHouse(t *testing.T, base, ip string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/dash/events", nil)
	res, err := fromAddr(ip).Do(req)
	if err != nil {
		t.Errorf("a page from %s: %v", ip, err)
		return
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		t.Errorf("a page from %s: %d %s", ip, res.StatusCode, b)
		return
	}
	br := bufio.NewReader(res.Body)
	if first := nextData(t, br); len(first) < 2 || first[0] != '{' {
		t.Errorf("a page from %s: first event %.100q, want the state", ip, first)
	}
}

// TestOneAddressCannotTakeEveryStream: one address opens 500 live streams
// and reads none (once 16 were served, the rest and every other page
// 503). Each is served and the address's oldest closed to make room, so it
// holds its share and no more, and a page from another address follows
// the house.
func TestOneAddressCannotTakeEveryStream(t *testing.T) {
	store, _ := demoStore(t, time.Hour)
	h := newDash(t, dash.StoreSource{Store: store, StaleAfter: time.Hour}, nil)
	base := serve(t, "127.0.0.1", h)
	const streams = 500
	served, refused := holdStreams(t, fromAddr("127.0.0.2"), base, streams)
	if refused > 0 {
		t.Errorf("%d of %d streams refused; want each served, the address's oldest closed instead", refused, streams)
	}
	followsTheHouse(t, base, "127.0.0.3")
	if n := h.Streams(); n > dash.DefaultMaxClientStreams+1 {
		t.Errorf("%d streams open, want the address's share and the other page's (%d)", n, dash.DefaultMaxClientStreams+1)
	}
	if len(served) > dash.DefaultMaxClientStreams && !streamEnds(served[0]) {
		t.Error("the address's oldest stream, never read, is still open")
	}
}

// TestStreamCeiling: addresses within their share keep their streams; past
// MaxStreams a new page closes the oldest stream of the address with
// most, and is served.
func TestStreamCeiling(t *testing.T) {
	store, _ := demoStore(t, time.Hour)
	h := newDash(t, dash.StoreSource{Store: store, StaleAfter: time.Hour}, &dash.Options{MaxStreams: 4, MaxClientStreams: 3})
	base := serve(t, "127.0.0.1", h)
	a, _ := holdStreams(t, fromAddr("127.0.0.2"), base, 3)
	b, _ := holdStreams(t, fromAddr("127.0.0.3"), base, 1)
	if n := h.Streams(); n != 4 || len(a)+len(b) != 4 {
		t.Fatalf("two addresses within their share: %d open, %d served; want 4", n, len(a)+len(b))
	}
	followsTheHouse(t, base, "127.0.0.4")
	if !streamEnds(a[0]) {
		t.Error("the oldest stream of the address with most is still open")
	}
	// The page above has gone: the other three stay.
	for deadline := time.Now().Add(5 * time.Second); h.Streams() != 3; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d streams open, want 3", h.Streams())
		}
	}
}
