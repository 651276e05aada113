package station

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// memSink is a sink that keeps what it is given, and the state each
// Record call carried, as the history keeps them together.
type memSink struct {
	mu     sync.Mutex
	rs     []sensors.Reading
	states map[string]string
}

func (m *memSink) Record(_ context.Context, b sensors.Batch) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.rs = append(m.rs, b.Readings...)
	for _, st := range b.States {
		m.states[st.Key] = st.Value
	}
	return nil
}
func (m *memSink) Report(sensors.Status)       {}
func (m *memSink) Flush(context.Context) error { return nil }

func (m *memSink) state(_ context.Context, key string) (string, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.states[key]
	return v, ok, nil
}

func (m *memSink) sum(zone string, meas sensors.Measurement) (n int, total float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range m.rs {
		if r.Zone == zone && r.Measurement == meas {
			n, total = n+1, total+r.Value
		}
	}
	return n, total
}

// running serves a source recording into sink; stop ends it.
func running(t *testing.T, cfg Config, sink *memSink) (*httptest.Server, func()) {
	t.Helper()
	return runningLog(t, cfg, sink, io.Discard)
}

// runningLog is running with the source's log written to w.
func runningLog(t *testing.T, cfg Config, sink *memSink, w io.Writer) (*httptest.Server, func()) {
	t.Helper()
	src := NewSource(cfg, sink.state, sink, slog.New(slog.NewTextHandler(w, nil)))
	srv := httptest.NewServer(src.Handler())
	return srv, func() { srv.Close(); src.Close() }
}

func post(t *testing.T, base string, form url.Values) int {
	t.Helper()
	resp, err := http.PostForm(base+"/data/report/", form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func upload(dateutc string, yearly float64) url.Values {
	return url.Values{"PASSKEY": {"K"}, "dateutc": {dateutc}, "tempf": {"50"}, "yearlyrainin": {fmtF(yearly)}}
}

// TestSourceRainAcrossRestart: rain is counted from one upload to the
// next, and a source started again on what the sink committed goes on
// from there: nothing lost, nothing counted twice.
func TestSourceRainAcrossRestart(t *testing.T) {
	sink := &memSink{states: map[string]string{}}
	srv, stop := running(t, Config{Zones: map[string]string{"outdoor": "Garden"}}, sink)
	now := time.Now().UTC()
	stamp := func(d time.Duration) string { return now.Add(d).Format("2006-01-02 15:04:05") }
	for i, y := range []float64{10, 10.5, 11} { // 0.5 in + 0.5 in
		if code := post(t, srv.URL, upload(stamp(time.Duration(i-10)*time.Minute), y)); code != 200 {
			t.Fatalf("upload %d: %d", i, code)
		}
	}
	stop()
	srv, stop = running(t, Config{Zones: map[string]string{"outdoor": "Garden"}}, sink)
	defer stop()
	post(t, srv.URL, upload(stamp(-8*time.Minute), 11))   // sent again after the restart
	post(t, srv.URL, upload(stamp(-1*time.Minute), 11.2)) // 0.2 in more while the hub was down
	if _, total := sink.sum("Garden", sensors.Rain); total < 1.2*25.4-1e-9 || total > 1.2*25.4+1e-9 {
		t.Errorf("rain %.3f mm, want %.3f (1.2 in)", total, 1.2*25.4)
	}
	if n, _ := sink.sum("Garden", sensors.Temperature); n != 5 {
		t.Errorf("%d temperatures in the garden, want 5", n)
	}
}

// TestSourceRefuses: a station not on the list, one that uploads too
// fast, and an upload that cannot be read are answered so, and nothing
// of them is recorded.
func TestSourceRefuses(t *testing.T) {
	sink := &memSink{states: map[string]string{}}
	srv, stop := running(t, Config{Passkeys: []string{"K"}}, sink)
	defer stop()
	if code := post(t, srv.URL, url.Values{"PASSKEY": {"stranger"}, "tempf": {"50"}}); code != http.StatusForbidden {
		t.Errorf("a station not listed: %d, want 403", code)
	}
	resp, err := http.PostForm(srv.URL+"/data/report/", url.Values{"tempf": {"50"}})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "PASSKEY=") {
		t.Errorf("no PASSKEY: %d %q, want 400 saying the upload needs PASSKEY=", resp.StatusCode, body)
	}
	codes := map[int]int{}
	for range uploadBurst + 3 {
		codes[post(t, srv.URL, url.Values{"PASSKEY": {"K"}, "tempf": {"50"}})]++
	}
	if codes[http.StatusTooManyRequests] == 0 || codes[200] > uploadBurst+1 {
		t.Errorf("a burst of %d uploads: %v, want some 429", uploadBurst+3, codes)
	}
	big := url.Values{"PASSKEY": {"K"}, "x": {strings.Repeat("a", MaxBody)}}
	if code := post(t, srv.URL, big); code != http.StatusBadRequest {
		t.Errorf("an upload over 16 KB: %d, want 400", code)
	}
	if n, _ := sink.sum("Station outdoor", sensors.Temperature); n > uploadBurst+1 {
		t.Errorf("%d readings recorded from a burst limited to %d", n, uploadBurst+1)
	}
}

func fmtF(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// TestSourceStationsBounded: without a passkey list the first MaxStations
// stations are tracked (their gauges, their limits) and any other is
// refused, so uploads under made-up PASSKEYs cannot make the hub hold more.
func TestSourceStationsBounded(t *testing.T) {
	sink := &memSink{states: map[string]string{}}
	srv, stop := running(t, Config{}, sink)
	defer stop()
	for i := range MaxStations {
		if code := post(t, srv.URL, url.Values{"PASSKEY": {fmt.Sprint("station", i)}, "tempf": {"50"}}); code != http.StatusOK {
			t.Fatalf("station %d of %d: %d", i+1, MaxStations, code)
		}
	}
	if code := post(t, srv.URL, url.Values{"PASSKEY": {"one too many"}, "tempf": {"50"}}); code != http.StatusForbidden {
		t.Errorf("station %d: %d, want 403", MaxStations+1, code)
	}
	if code := post(t, srv.URL, url.Values{"PASSKEY": {"station1"}, "tempf": {"51"}}); code != http.StatusOK {
		t.Errorf("a tracked station after the bound: %d, want 200", code)
	}
}
