package front

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mcp"
	"github.com/climated/climated/sensors"
)

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"plain","version":"1"}}}`

// hubWith serves a real history store and MCP server through the front,
// on loopback, with health checks and a /metrics of its own.
func hubWith(t *testing.T, opts Options, checks ...func() error) *httptest.Server {
	t.Helper()
	store, err := hub.Open(context.Background(), filepath.Join(t.TempDir(), "h.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Record(context.Background(), sensors.Batch{Readings: []sensors.Reading{{Zone: "Indoor", Measurement: sensors.Temperature, Value: 21.5, Time: time.Now(), Source: "test"}}}); err != nil {
		t.Fatal(err)
	}
	srv := mcp.New(t.Context(), store, &mcp.Options{Version: "test"})
	f := New(Routes{
		MCP:     srv.Handler(),
		Climate: func() []byte { return store.Snapshot().JSON },
		Health:  checks,
		Metrics: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "climated_up 1\n") }),
	}, &opts)
	ts := httptest.NewServer(f)
	t.Cleanup(func() { srv.Close(); ts.Close(); store.Close(context.Background()) })
	return ts
}

// endpoints are every checked route of the hub.
var endpoints = []testutil.Request{
	{Method: "POST", Path: "/mcp", Body: initBody},
	{Method: "GET", Path: "/sse"},
	{Method: "POST", Path: "/message?session_id=x", Body: `{"jsonrpc":"2.0","id":1,"method":"ping"}`},
	{Method: "GET", Path: "/api/climate"},
	{Method: "GET", Path: "/metrics"},
}

func TestHostAndOriginChecks(t *testing.T) {
	ts := hubWith(t, Options{AllowedOrigins: []string{"https://dashboard.example"}})
	for _, e := range endpoints {
		for _, c := range []struct {
			name   string
			header map[string]string
			code   int
			want   string
		}{
			{"rebound host", map[string]string{"Host": "evil.example:8473"}, 403, `Host "evil.example:8473" is not a loopback name`},
			{"foreign origin", map[string]string{"Origin": "http://evil.example"}, 403, `Origin "http://evil.example" is not allowed`},
			{"garbage origin", map[string]string{"Origin": "::"}, 403, "is not a URL"},
		} {
			e.Header = c.header
			code, _, body := testutil.Do(t, ts.URL, e)
			if code != c.code || !strings.Contains(body, c.want) {
				t.Errorf("%s %s with %s: %d %q, want %d %q", e.Method, e.Path, c.name, code, body, c.code, c.want)
			}
		}
		for _, origin := range []string{ts.URL, "https://dashboard.example"} {
			e.Header = map[string]string{"Origin": origin}
			if code, _, body := testutil.Do(t, ts.URL, e); code == 403 || code == 401 {
				t.Errorf("%s %s from allowed origin %s: %d %q", e.Method, e.Path, origin, code, body)
			}
		}
	}
	if code, _, _ := testutil.Do(t, ts.URL, testutil.Request{Method: "GET", Path: "/api/climate", Header: map[string]string{"Host": "localhost:8473"}}); code != 200 {
		t.Errorf("Host localhost refused: %d", code)
	}
}

func TestAllowedHosts(t *testing.T) {
	ts := hubWith(t, Options{Token: "t", AllowedHosts: []string{"hub.local"}})
	auth := "Bearer t"
	for host, want := range map[string]int{"hub.local:8473": 200, "localhost:8473": 200, "other.local:8473": 403} {
		if code, _, body := testutil.Do(t, ts.URL, testutil.Request{Method: "GET", Path: "/api/climate", Header: map[string]string{"Host": host, "Authorization": auth}}); code != want {
			t.Errorf("Host %s: %d %q, want %d", host, code, body, want)
		}
	}
}

func TestBearerToken(t *testing.T) {
	const token = "s3cret-token-of-the-hub"
	ts := hubWith(t, Options{Token: token})
	for _, e := range endpoints {
		for _, c := range []struct{ auth, want string }{
			{"", "missing Authorization"},
			{"Basic czNjcmV0", "Bearer scheme"},
			{"Bearer s3cret-token-of-the-huc", "wrong bearer token"},
			{"Bearer s3cret-token-of-the-hub2", "wrong bearer token"},
			{"Bearer s3cret", "wrong bearer token"},
		} {
			e.Header = map[string]string{"Authorization": c.auth, "Host": "hub.local:8473"}
			code, hdr, body := testutil.Do(t, ts.URL, e)
			if code != 401 || hdr.Get("WWW-Authenticate") == "" || !strings.Contains(body, c.want) {
				t.Errorf("%s %s with %q: %d %q (WWW-Authenticate %q)", e.Method, e.Path, c.auth, code, body, hdr.Get("WWW-Authenticate"))
			}
		}
		e.Header = map[string]string{"Authorization": "Bearer " + token, "Host": "hub.local:8473"}
		if code, _, body := testutil.Do(t, ts.URL, e); code == 401 || code == 403 {
			t.Errorf("%s %s with the token: %d %q", e.Method, e.Path, code, body)
		}
	}
	if code, _, _ := testutil.Do(t, ts.URL, testutil.Request{Method: "GET", Path: "/healthz"}); code != 200 {
		t.Errorf("/healthz needs no token, got %d", code)
	}
	// A client that knows the token works end to end.
	c := sdk.NewClient(&sdk.Implementation{Name: "front-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: ts.URL + "/mcp", HTTPClient: &http.Client{Transport: bearer(token)}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
}

type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// TestHealthAndClimate: /healthz names every failing part, one per entry
// (a join counts each of its errors); /api/climate is the structure.
func TestHealthAndClimate(t *testing.T) {
	failing := errors.Join(errors.New("history: writes failing"), errors.New("sensor sht31: no answer"))
	ts := hubWith(t, Options{}, func() error { return failing })
	code, _, body := testutil.Do(t, ts.URL, testutil.Request{Method: "GET", Path: "/healthz"})
	var h struct {
		Status   string   `json:"status"`
		Problems []string `json:"problems"`
	}
	json.Unmarshal([]byte(body), &h)
	if code != 503 || h.Status != "unhealthy" || len(h.Problems) != 2 || h.Problems[1] != "sensor sht31: no answer" {
		t.Errorf("/healthz with two problems: %d %s", code, body)
	}
	code, hdr, body := testutil.Do(t, ts.URL, testutil.Request{Method: "GET", Path: "/api/climate"})
	var climate map[string]map[string]any
	if code != 200 || hdr.Get("Content-Type") != "application/json" || json.Unmarshal([]byte(body), &climate) != nil || climate["Indoor"]["Temperature"] != 21.5 {
		t.Errorf("/api/climate: %d %s", code, body)
	}
}

// TestMountedRoutesAreChecked: a route added later (a dashboard) gets the
// same checks, and a panic in it is a 500, not a dropped connection.
func TestMountedRoutesAreChecked(t *testing.T) {
	f := New(Routes{}, &Options{Token: "t"})
	f.Handle("GET /dashboard", http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }))
	ts := httptest.NewServer(f)
	defer ts.Close()
	if code, _, _ := testutil.Do(t, ts.URL, testutil.Request{Method: "GET", Path: "/dashboard"}); code != 401 {
		t.Errorf("a mounted route without the token: %d, want 401", code)
	}
	if code, _, body := testutil.Do(t, ts.URL, testutil.Request{Method: "GET", Path: "/dashboard", Header: map[string]string{"Authorization": "Bearer t"}}); code != 500 || !strings.Contains(body, "internal error") {
		t.Errorf("a panicking route: %d %q, want 500", code, body)
	}
}
