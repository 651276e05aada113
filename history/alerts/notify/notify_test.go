package notify_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/history/alerts/notify"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

var t0 = time.Date(2025, 1, 1, 3, 0, 0, 0, time.UTC)

func event(i int) alerts.Event {
	return alerts.Event{Type: alerts.Fired, Rule: "house.co2", Kind: alerts.Above, House: true, Zone: "Bedroom", Measurement: sensors.CO2,
		Time: t0.Add(time.Duration(i) * time.Minute), Value: float64(1400 + i), Unit: "ppm", Text: fmt.Sprintf("Bedroom CO2 above 1400 ppm for 15 min: %d ppm (stuffy air)", 1400+i)}
}

// recorder is a webhook on 127.0.0.1 that keeps what it was sent and
// answers with status(n) for the n-th request (from 0).
type recorder struct {
	mu      sync.Mutex
	bodies  []map[string]any
	headers []http.Header
	paths   []string
	n       int
	status  func(n int) int
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	n := r.n
	r.n++
	st := http.StatusOK
	if r.status != nil {
		st = r.status(n)
	}
	if st == http.StatusOK {
		var m map[string]any
		if err := json.NewDecoder(req.Body).Decode(&m); err != nil {
			st = http.StatusBadRequest
		}
		r.bodies = append(r.bodies, m)
		r.headers = append(r.headers, req.Header.Clone())
		r.paths = append(r.paths, req.URL.RequestURI())
	}
	r.mu.Unlock()
	w.WriteHeader(st)
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

func (r *recorder) messages() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, b := range r.bodies {
		out = append(out, fmt.Sprint(b["message"]))
	}
	return out
}

// fast is quick retries and no pacing per alert: these tests send many
// events of one alert to test the queue (pace_test.go tests the pacing).
func fast() *notify.Options {
	return &notify.Options{PerAlert: -1, MinBackoff: 2 * time.Millisecond, MaxBackoff: 20 * time.Millisecond, Timeout: 2 * time.Second}
}

// start runs n until the test ends, and checks that Run returns then.
func start(t *testing.T, n *notify.Notifier) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- n.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Error("Run did not return after its context ended")
		}
	})
}

func TestNtfyBody(t *testing.T) {
	rec := &recorder{}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	n, err := notify.New(notify.Config{URL: srv.URL + "/", Topic: "house-alerts", Token: "tk_secret", Cleared: true}, fast())
	if err != nil {
		t.Fatal(err)
	}
	start(t, n)
	cleared := event(1)
	cleared.Type, cleared.Text = alerts.Cleared, "Bedroom CO2 back below 1300 ppm after 4 h: 1250 ppm (stuffy air)"
	n.Notify(event(0), cleared)
	testutil.WaitFor(t, "two deliveries", func() bool { return len(rec.messages()) == 2 })
	b, h := rec.bodies[0], rec.headers[0]
	if b["topic"] != "house-alerts" || b["title"] != "Bedroom alert" || b["message"] != event(0).Text || b["priority"] != 4.0 {
		t.Errorf("body %v", b)
	}
	if tags := fmt.Sprint(b["tags"]); tags != "[warning above]" {
		t.Errorf("tags %s", tags)
	}
	if h.Get("Authorization") != "Bearer tk_secret" || h.Get("Content-Type") != "application/json" || rec.paths[0] != "/" {
		t.Errorf("headers %v, path %s", h, rec.paths[0])
	}
	if b := rec.bodies[1]; b["title"] != "Bedroom alert cleared" || b["priority"] != 3.0 {
		t.Errorf("cleared body %v", b)
	}
}

func TestGotifyBody(t *testing.T) {
	rec := &recorder{}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	n, err := notify.New(notify.Config{URL: srv.URL + "/message", Format: notify.Gotify, Token: "AbCdEf.123"}, fast())
	if err != nil {
		t.Fatal(err)
	}
	start(t, n)
	cleared := event(1)
	cleared.Type = alerts.Cleared
	n.Notify(cleared, event(0)) // cleared events are not sent unless configured
	testutil.WaitFor(t, "a delivery", func() bool { return len(rec.messages()) == 1 })
	b := rec.bodies[0]
	if b["title"] != "Bedroom alert" || b["message"] != event(0).Text || b["priority"] != 8.0 || len(b) != 3 {
		t.Errorf("body %v", b)
	}
	if rec.headers[0].Get("X-Gotify-Key") != "AbCdEf.123" || rec.paths[0] != "/message" {
		t.Errorf("headers %v path %s", rec.headers[0], rec.paths[0])
	}
}

// A webhook that is down: connections refused, then 500s, then up. Every
// event arrives once, in order.
func TestWebhookDown(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens: connection refused
	n, err := notify.New(notify.Config{URL: "http://" + addr + "/", Topic: "t"}, fast())
	if err != nil {
		t.Fatal(err)
	}
	start(t, n)
	for i := range 5 {
		n.Notify(event(i))
	}
	testutil.WaitFor(t, "retries while refused", func() bool { return n.Stats().Retries >= 3 })

	rec := &recorder{status: func(i int) int {
		if i < 4 {
			return http.StatusInternalServerError
		}
		return http.StatusOK
	}}
	l, err = net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("port %s taken meanwhile: %v", addr, err)
	}
	srv := &http.Server{Handler: rec}
	go srv.Serve(l)
	defer srv.Close()
	testutil.WaitFor(t, "all five delivered", func() bool { return n.Stats().Sent == 5 })
	want := []string{event(0).Text, event(1).Text, event(2).Text, event(3).Text, event(4).Text}
	if got := rec.messages(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("delivered\n%q\nwant\n%q", got, want)
	}
	if s := n.Stats(); s.Dropped != 0 || s.Queued != 0 || s.Rejected != 0 || rec.count() != 9 {
		t.Errorf("stats %+v after %d requests; want 4 failures then 5 deliveries", s, rec.count())
	}
}

// A slow webhook: Notify never waits for it, and the queue stays within
// its bound by dropping the oldest.
func TestWebhookSlow(t *testing.T) {
	release := make(chan struct{})
	rec := &recorder{}
	var arrived atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived.Add(1)
		select {
		case <-release:
			rec.ServeHTTP(w, r)
		case <-r.Context().Done(): // the client gave up
		}
	}))
	defer srv.Close()
	opts := fast()
	opts.Queue = 10
	// The stuck request must not time out on a loaded machine: it would be
	// sent again, and the count of deliveries below would be off.
	opts.Timeout = time.Minute
	n, err := notify.New(notify.Config{URL: srv.URL, Topic: "t"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	start(t, n)
	n.Notify(event(0))
	// In flight: at the webhook, not only queued (Notify would drop it).
	testutil.WaitFor(t, "the first request in flight", func() bool { return arrived.Load() == 1 })
	began := time.Now()
	for i := 1; i <= 1000; i++ {
		n.Notify(event(i))
	}
	if d := time.Since(began); d > time.Second {
		t.Errorf("1000 Notify calls took %v with the webhook stuck", d)
	}
	if s := n.Stats(); s.Queued != 10 || s.Dropped != 991 {
		t.Errorf("stats %+v; want 10 queued, 991 dropped", s)
	}
	close(release) // the webhook answers again
	testutil.WaitFor(t, "the queue drained", func() bool { return n.Stats().Queued == 0 })
	got := rec.messages()
	if len(got) != 11 || got[1] != event(991).Text || got[10] != event(1000).Text {
		t.Errorf("delivered %d: %q", len(got), got)
	}
}

// A webhook that refuses an event for good (a wrong token) does not hold
// up the next.
func TestWebhookRefuses(t *testing.T) {
	rec := &recorder{status: func(i int) int {
		if i == 0 {
			return http.StatusForbidden
		}
		return http.StatusOK
	}}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	n, err := notify.New(notify.Config{URL: srv.URL, Topic: "t"}, fast())
	if err != nil {
		t.Fatal(err)
	}
	start(t, n)
	n.Notify(event(0), event(1))
	testutil.WaitFor(t, "the second delivered", func() bool { return n.Stats().Sent == 1 })
	if s := n.Stats(); s.Rejected != 1 || rec.messages()[0] != event(1).Text {
		t.Errorf("stats %+v, delivered %q", s, rec.messages())
	}
}

func TestConfigErrors(t *testing.T) {
	cases := []struct {
		cfg  notify.Config
		want string
	}{
		{notify.Config{URL: "ntfy.sh", Topic: "t"}, `alerts.webhook.url: "ntfy.sh" is not an http or https URL`},
		{notify.Config{URL: "https://ntfy.sh/"}, "alerts.webhook.topic: missing"},
		{notify.Config{URL: "https://ntfy.sh/mytopic", Topic: "t"}, "ntfy takes JSON at its root URL (https://ntfy.sh/)"},
		{notify.Config{URL: "https://g.example/message", Format: "gotify"}, "alerts.webhook.token: missing"},
		{notify.Config{URL: "https://x.example/", Format: "slack"}, `alerts.webhook.format: "slack"; valid formats: ntfy, gotify`},
	}
	for _, tc := range cases {
		_, err := notify.New(tc.cfg, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err %v, want %q", tc.cfg, err, tc.want)
		}
	}
}
