package remotewrite

import (
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
)

// TestRedirectKeepsCredentialsAtTheStore: the store's token (or
// password) goes to the store the configuration names, not to wherever
// it redirects: a 307 from the store's https origin to plain http on the
// same host, or to another port of it (another service), must not carry
// the Authorization header there (curl's CVE-2022-27776: credentials
// leaked on a redirect to another port or scheme of the same host). The
// HTTP client keeps the header whenever the host name is the same,
// whatever the scheme and port.
func TestRedirectKeepsCredentialsAtTheStore(t *testing.T) {
	token := filepath.Join(t.TempDir(), "token")
	os.WriteFile(token, []byte("s3cret\n"), 0o600)
	var mu sync.Mutex
	var leaked []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		if a := r.Header.Get("Authorization"); a != "" {
			leaked = append(leaked, a)
		}
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(other.Close)
	for _, c := range []struct {
		name  string
		front *httptest.Server
	}{
		{"https to http", httptest.NewUnstartedServer(nil)},
		{"another port", httptest.NewUnstartedServer(nil)},
	} {
		t.Run(c.name, func(t *testing.T) {
			mu.Lock()
			leaked = nil
			mu.Unlock()
			c.front.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				http.Redirect(w, r, other.URL+"/api/v1/write", http.StatusTemporaryRedirect)
			})
			cfg := Config{URL: "", Backfill: time.Hour, BearerTokenFile: token, MaxBackoff: time.Second}
			if c.name == "https to http" {
				c.front.StartTLS()
				ca := filepath.Join(t.TempDir(), "ca.pem")
				os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.front.Certificate().Raw}), 0o600)
				cfg.TLS.CAFile = ca
			} else {
				c.front.Start()
			}
			t.Cleanup(c.front.Close)
			cfg.URL = c.front.URL + "/api/v1/write"
			st := openHistory(t)
			base := time.Now().Add(-30 * time.Minute).Truncate(time.Minute)
			record(t, st, minutes(base, 2)...)
			s := run(t, st, cfg)
			testutil.WaitFor(t, "a first outcome", func() bool {
				st := s.Status()
				return st.Sent > 0 || st.Failed > 0 || st.Failures > 0
			})
			mu.Lock()
			defer mu.Unlock()
			if len(leaked) > 0 {
				t.Errorf("the store %s redirected to %s, which was sent the store's credentials %q", cfg.URL, other.URL, leaked)
			}
		})
	}
}
