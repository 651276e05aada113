package station

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestStrayUploads: uploads to a wrong secret or another guide's path are
// answered 404 with why, and logged once a minute per shape of path,
// showing the secret's length and not the secret.
func TestStrayUploads(t *testing.T) {
	var log syncBuffer
	mux := http.NewServeMux()
	for _, p := range StrayPaths {
		mux.Handle(p, Stray(slog.New(slog.NewTextHandler(&log, nil)), true))
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()
	form := url.Values{"PASSKEY": {"K"}, "tempf": {"50"}}
	for range 3 {
		for _, p := range []string{"/station/WRONGSECRETWRONGSECRET/", "/data/report/"} {
			resp, err := http.PostForm(srv.URL+p, form)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "climated station") {
				t.Errorf("%s: %d %q, want 404 naming climated station", p, resp.StatusCode, body)
			}
		}
	}
	out := log.String()
	if n := strings.Count(out, "/station/<22 characters>/"); n != 1 {
		t.Errorf("the wrong secret logged %d times, want once:\n%s", n, out)
	}
	if n := strings.Count(out, "path=/data/report/"); n != 1 {
		t.Errorf("the other guide's path logged %d times, want once:\n%s", n, out)
	}
	if strings.Contains(out, "WRONGSECRET") {
		t.Errorf("the log shows the secret:\n%s", out)
	}
}
