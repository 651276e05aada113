package oauth_test

import (
	"net/http"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// TestAuthorizeErrorsDoNotTellWhichDocumentsApproved: a stranger sends a
// GET /authorize naming a client document's public URL (ChatGPT's) and its
// public redirect URI, with a bad parameter (response_type=token). The hub
// answered 400 on its own page before the owner approved the document and
// redirected (303) to the client's redirect URI after, as it does for an
// approved registered client: one GET, never followed, told anyone
// whether this household connected ChatGPT, as /token and /register/ID
// once did (TestTokenDoesNotTellWhichDocumentsApproved,
// TestDocumentClientsHaveNoRegistration). A document client's errors are
// now always on the hub's page.
func TestAuthorizeErrorsDoNotTellWhichDocumentsApproved(t *testing.T) {
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
