package notify_test

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/history/alerts/notify"
	"github.com/climated/climated/sensors"
)

// run starts n in the current bubble; the returned stop ends it and waits.
func run(t *testing.T, n *notify.Notifier) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- n.Run(ctx) }()
	return func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}
}

// loopbackClient closes every connection after its request: an idle one
// would leave a goroutine reading the network, and a bubble's clock only
// moves while all its goroutines wait on it.
func loopbackClient() *http.Client {
	return &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 5 * time.Second}
}

// TestFlappingAlertBounded: a CO2 rule without a hold, its value crossing
// the threshold and back every 100 ms for 5 minutes (the engine lets 5
// events a second through), notifies a real webhook on loopback at once
// and then at most once a minute, the last with the latest state and how
// many events it stands for; another alert meanwhile is not held up.
func TestFlappingAlertBounded(t *testing.T) {
	rec := &recorder{}
	srv := httptest.NewServer(rec) // outside the bubble: real time, real loopback
	defer srv.Close()
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		n, err := notify.New(notify.Config{URL: srv.URL + "/", Topic: "t", Cleared: true}, &notify.Options{Client: loopbackClient()})
		if err != nil {
			t.Fatal(err)
		}
		stop := run(t, n)
		defer stop()
		e, err := alerts.New(ctx, &alerts.Options{Zones: []string{"Bedroom", "Indoor"}, House: &alerts.HouseConfig{}})
		if err != nil {
			t.Fatal(err)
		}
		for _, zone := range []string{"Bedroom", "Indoor"} {
			if _, err := e.Create(ctx, alerts.Rule{Kind: alerts.Above, Zone: zone, Measurement: sensors.CO2, Threshold: 1200}); err != nil {
				t.Fatal(err)
			}
		}
		observe := func(zone string, v float64) []alerts.Event {
			evs, err := e.Observe(ctx, []sensors.Reading{{Zone: zone, Measurement: sensors.CO2, Value: v, Time: time.Now(), Source: "test"}})
			if err != nil {
				t.Fatal(err)
			}
			n.Notify(evs...)
			return evs
		}
		bedroom := func() (sent []string) {
			for _, m := range rec.messages() {
				if strings.HasPrefix(m, "Bedroom") {
					sent = append(sent, m)
				}
			}
			return sent
		}
		start := time.Now()
		var events int
		var last alerts.Event
		for i := 0; time.Since(start) < 5*time.Minute; i++ {
			evs := observe("Bedroom", []float64{1300, 1000}[i%2])
			events += len(evs)
			if len(evs) > 0 {
				last = evs[len(evs)-1]
			}
			if i == 20 { // 2 s in, within the engine's burst (it would suppress it later)
				if evs := observe("Indoor", 1300); len(evs) != 1 {
					t.Fatalf("Indoor's alert: events %+v, want one", evs)
				}
				synctest.Wait() // the notifier is idle again: it has sent
				if got := rec.messages(); len(got) == 0 || !strings.HasPrefix(got[len(got)-1], "Indoor CO2 above 1200 ppm") {
					t.Errorf("another alert while one flaps: sent %q, want it at once", got)
				}
			}
			time.Sleep(100 * time.Millisecond)
			synctest.Wait()
			if sent, bound := len(bedroom()), 1+int(time.Since(start)/notify.DefaultPerAlert); sent > bound {
				t.Fatalf("%d notifications of the flapping alert after %s, want at most %d", sent, time.Since(start), bound)
			}
		}
		time.Sleep(2 * notify.DefaultPerAlert)
		synctest.Wait()
		sent := bedroom()
		t.Logf("%d events of the flapping alert in 5 min, %d notifications", events, len(sent))
		if events < 1000 || len(sent) < 2 || len(sent) > 6 {
			t.Fatalf("%d events, %d notifications %q; want at least 1000 events in 2…6 notifications", events, len(sent), sent)
		}
		if final := sent[len(sent)-1]; !strings.HasPrefix(final, last.Text+" (and ") || !strings.Contains(final, "more events of this alert since the last notification") {
			t.Errorf("last notification %q; want the latest event %q and the count it stands for", final, last.Text)
		}
	})
}

// logLines keeps the messages and attributes of a logger's records.
type logLines struct {
	mu    sync.Mutex
	lines []slog.Record
}

func (l *logLines) Enabled(context.Context, slog.Level) bool { return true }
func (l *logLines) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *logLines) WithGroup(string) slog.Handler            { return l }
func (l *logLines) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, r.Clone())
	return nil
}

// drops returns the times of the queue-full lines and the sum of their counts.
func (l *logLines) drops() (times []time.Time, dropped int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, r := range l.lines {
		if !strings.HasPrefix(r.Message, "webhook queue full") {
			continue
		}
		times = append(times, r.Time)
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "dropped" {
				dropped += a.Value.Int64()
			}
			return true
		})
	}
	return times, dropped
}

// TestDropLogOncePerMinute: with the webhook down and the queue full for
// 70 s, dropping 990 events, the drops are logged at most once a minute,
// each line with the count since the one before, and none goes uncounted.
func TestDropLogOncePerMinute(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + l.Addr().String() + "/"
	l.Close() // nothing listens: connections are refused
	synctest.Test(t, func(t *testing.T) {
		logs := &logLines{}
		n, err := notify.New(notify.Config{URL: down, Topic: "t"}, &notify.Options{Queue: 10, Client: loopbackClient(), Logger: slog.New(logs)})
		if err != nil {
			t.Fatal(err)
		}
		stop := run(t, n)
		defer stop()
		start := time.Now()
		for i := range 1000 {
			ev := event(i)
			ev.Zone = fmt.Sprintf("Zone %d", i) // one alert each: the queue, not the pacing, is under test
			n.Notify(ev)
			time.Sleep(70 * time.Millisecond)
		}
		synctest.Wait()
		lines, _ := logs.drops()
		if len(lines) > 2 {
			t.Errorf("%d lines about drops in %s, want at most 2 (one a minute)", len(lines), time.Since(start))
		}
		time.Sleep(time.Minute) // the count since the last line is logged when its minute is up
		synctest.Wait()
		lines, dropped := logs.drops()
		for _, at := range lines {
			t.Logf("a line about drops at %s", at.Sub(start))
		}
		if s := n.Stats(); s.Dropped != 990 || dropped != s.Dropped {
			t.Errorf("dropped %d (stats %+v), logged %d; want 990 dropped and logged", s.Dropped, s, dropped)
		}
		for i := 1; i < len(lines); i++ {
			if d := lines[i].Sub(lines[i-1]); d < time.Minute {
				t.Errorf("lines %d and %d about drops %s apart, want a minute at least", i, i+1, d)
				break
			}
		}
	})
}
