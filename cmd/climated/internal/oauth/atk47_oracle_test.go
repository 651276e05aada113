package oauth_test

import (
	"net/http"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// TestAtk47AuthorizeErrorsTellWhichDocumentsApproved: a stranger sends a
// GET /authorize naming a client document's public URL (ChatGPT's) and its
// public redirect URI, with a bad parameter (response_type=token). Before
// the owner approved the document the hub answers 400 on its own page;
// after, it redirects (303) to the client's redirect URI, because
// trusted() finds the document's row kept in oauth_clients. One GET,
// never followed, tells anyone whether this household connected ChatGPT,
// the oracle 9645cb0 and 53e8246 closed on /token and /register/ID.
func TestAtk47AuthorizeErrorsTellWhichDocumentsApproved(t *testing.T) {
	const redirect = "https://app.example/cb"
	d := newDocServer(t, redirect)
	h := cimdHub(t, d, true)
	id := d.URL + "/client.json"
	ask := func() string {
		q := h.authQuery(id, redirect)
		q.Set("response_type", "token")
		resp, _ := newBrowser(t).get(h.base + oauth.PathAuthorize + "?" + q.Encode())
		loc := resp.Header.Get("Location")
		if loc != "" {
			loc = "redirect"
		}
		return resp.Status + " " + loc
	}
	before := ask()
	if resp := newBrowser(t).approve(h, h.authQuery(id, redirect), ownerToken); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("approval: %d", resp.StatusCode)
	}
	if after := ask(); after != before {
		t.Errorf("GET /authorize (response_type=token) naming the document: %q before the owner approved it, %q after: a stranger can tell", before, after)
	}
}
