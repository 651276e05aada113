package connect

import (
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestHubAnswers: only a listener whose /healthz says 200 or 503 is a hub;
// another program on the port, or nothing, is not. (A real hub answering
// is TestREADMEConnect's, in cmd/climated.)
func TestHubAnswers(t *testing.T) {
	for _, c := range []struct {
		name string
		code int
		want bool
	}{{"healthy hub", 200, true}, {"hub with a problem", 503, true}, {"another program", 404, false}} {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/healthz" {
				http.NotFound(w, r)
				return
			}
			w.WriteHeader(c.code)
		}))
		if got := hubAnswers(ts.URL); got != c.want {
			t.Errorf("%s: hubAnswers = %v, want %v", c.name, got, c.want)
		}
		ts.Close()
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	if hubAnswers("http://" + addr) {
		t.Errorf("nothing listening at %s, yet a hub answers", addr)
	}
}
