package chromium_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/climated/climated/internal/testutil/chromium"
)

const callback = "https://app.example/cb"

// consentServer is a consent page as Approve knows it: the owner field,
// approve and deny buttons; the right owner is sent to callback, a wrong
// one gets the page again with an error, and /refused sends the browser
// to callback at once with an error, as a hub does with a bad request.
func consentServer(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, msg string) {
		fmt.Fprintf(w, `<!doctype html><form method="post" action="/authorize"><p>%s</p>
<input type="password" name="owner"><button name="action" value="deny">Deny</button>
<button name="action" value="approve">Allow</button></form>`, msg)
	}
	mux.HandleFunc("GET /authorize", func(w http.ResponseWriter, r *http.Request) { page(w, "Allow the test client?") })
	mux.HandleFunc("POST /authorize", func(w http.ResponseWriter, r *http.Request) {
		if r.FormValue("owner") != "secret" || r.FormValue("action") != "approve" {
			page(w, "that is not the hub's token")
			return
		}
		http.Redirect(w, r, callback+"?code=c0de&state=st", http.StatusSeeOther)
	})
	mux.HandleFunc("GET /refused", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, callback+"?error=invalid_target&state=st", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestApprove: the redirect is caught with its query, wherever it
// points; a refusal at once comes back as the redirect it is; a wrong
// owner is an error that quotes the page.
func TestApprove(t *testing.T) {
	bctx := chromium.Browser(t)
	srv := consentServer(t)
	u, err := chromium.Approve(bctx, srv.URL+"/authorize", "secret", callback)
	if err != nil || u.Query().Get("code") != "c0de" || u.Query().Get("state") != "st" || !strings.HasPrefix(u.String(), callback) {
		t.Errorf("approved: %v, %v", u, err)
	}
	u, err = chromium.Approve(bctx, srv.URL+"/refused", "secret", callback)
	if err != nil || u.Query().Get("error") != "invalid_target" {
		t.Errorf("refused at once: %v, %v", u, err)
	}
	u, err = chromium.Approve(bctx, srv.URL+"/authorize", "wrong", callback)
	if err == nil || !strings.Contains(err.Error(), "that is not the hub's token") {
		t.Errorf("a wrong owner: %v, %v; want an error quoting the page", u, err)
	}
}
