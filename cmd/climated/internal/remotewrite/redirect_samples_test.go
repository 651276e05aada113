package remotewrite

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
)

// TestRedirectedWriteNotCountedAsTaken: a store behind a front that
// answers the hub's POST with a redirect (an authenticating proxy's 302
// to its sign-in page, an http-to-https 301 in front of VictoriaMetrics,
// which answers a GET of /api/v1/write 400) never gets the samples: the
// HTTP client follows a 301, 302 or 303 with a GET without the body.
// The sender must not take the sign-in page's 200 for the store's, nor
// the 400 of that GET for the store refusing these samples for good: in
// both cases the cursor moved past readings no store holds.
func TestRedirectedWriteNotCountedAsTaken(t *testing.T) {
	for _, c := range []struct {
		name     string
		redirect int
		getCode  int // what the redirect's target answers a GET
	}{
		{"302 to a sign-in page", http.StatusFound, http.StatusOK},
		{"301 to a store that refuses a GET", http.StatusMovedPermanently, http.StatusBadRequest},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := openHistory(t)
			base := time.Now().Add(-30 * time.Minute).Truncate(time.Minute)
			record(t, st, minutes(base, 5)...)
			var mu sync.Mutex
			var got [][]byte // bodies of the POSTs that reached the target
			var methods []string
			target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				mu.Lock()
				methods = append(methods, r.Method)
				if r.Method == http.MethodPost && len(body) > 0 {
					got = append(got, body)
				}
				mu.Unlock()
				if r.Method != http.MethodPost {
					w.WriteHeader(c.getCode)
					io.WriteString(w, "<html>sign in</html>")
					return
				}
				w.WriteHeader(http.StatusNoContent)
			}))
			t.Cleanup(target.Close)
			front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				http.Redirect(w, r, target.URL+"/api/v1/write", c.redirect)
			}))
			t.Cleanup(front.Close)
			s := run(t, st, Config{URL: front.URL + "/api/v1/write", Backfill: time.Hour, MaxBackoff: time.Second})
			testutil.WaitFor(t, "a first outcome", func() bool {
				st := s.Status()
				return st.Sent > 0 || st.Failed > 0 || st.Failures > 0
			})
			time.Sleep(200 * time.Millisecond)
			mu.Lock()
			defer mu.Unlock()
			kept, err := ReadKept(context.Background(), st.Path(), front.URL+"/api/v1/write")
			if err != nil {
				t.Fatal(err)
			}
			status := s.Status()
			if len(got) == 0 && (status.Sent > 0 || status.Failed > 0 || kept.Position.T >= base.Unix()) {
				t.Errorf("no POST with samples reached any server (requests followed the redirect as %v), yet the sender counts %d samples sent and %d given up, state %q, and its cursor moved to %s, past the 10 readings",
					methods, status.Sent, status.Failed, status.State, time.Unix(kept.Position.T, 0).Format(time.RFC3339))
			}
			if !strings.Contains(status.Error, target.URL+"/api/v1/write") {
				t.Errorf("the status does not say where the store sends writes: %q", status.Error)
			}
		})
	}
}
