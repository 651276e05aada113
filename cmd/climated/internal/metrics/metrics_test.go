package metrics

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestInstrument: requests are counted per known endpoint and status
// code; any other path counts as "other", so that a scan of random URLs
// cannot grow the label set.
func TestInstrument(t *testing.T) {
	m := New()
	h := m.Instrument(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/healthz" {
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	for _, path := range []string{"/healthz", "/healthz", "/wp-admin", "/x/y"} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, path, nil))
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{
		`climated_http_requests_total{code="200",path="/healthz"} 2`,
		`climated_http_requests_total{code="404",path="other"} 2`,
		`climated_http_request_seconds_count{path="/healthz"} 2`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %s:\n%s", want, body)
		}
	}
}
