package oauth_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// approveDocument has the owner approve the client of document id on h.
func approveDocument(t *testing.T, h *hub, id, redirect string) {
	t.Helper()
	if resp := newBrowser(t).approve(h, h.authQuery(id, redirect), ownerToken); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("approval: %d", resp.StatusCode)
	}
}

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
	approveDocument(t, h, id, redirect)
	if after := ask(); after != before {
		t.Errorf("GET /authorize (response_type=token) naming the document: %q before the owner approved it, %q after: a stranger can tell", before, after)
	}
}

// TestFetchBudgetDoesNotTellWhichDocumentsWereUsed: a stranger spends a
// fetch budget with a few bogus client_ids (eleven GETs of /authorize),
// then asks /authorize for ChatGPT's document. When the documents fetched
// before had a budget of their own, the answer was 200 with the consent
// page on a hub whose household signed ChatGPT in since it started, and
// 400 "too many client documents fetched" on another: which assistants
// the household uses showed. The budget is now the asker's own, so both
// hubs answer alike.
func TestFetchBudgetDoesNotTellWhichDocumentsWereUsed(t *testing.T) {
	const redirect = "https://app.example/cb"
	d := newDocServer(t, redirect)
	id := d.URL + "/client.json"
	probe := func(h *hub) int {
		b := newBrowser(t)
		for i := range 11 {
			b.get(h.base + oauth.PathAuthorize + "?" + h.authQuery(fmt.Sprintf("%s/bogus-%d.json", d.URL, i), redirect).Encode())
		}
		resp, _ := b.get(h.base + oauth.PathAuthorize + "?" + h.authQuery(id, redirect).Encode())
		return resp.StatusCode
	}
	used := cimdHub(t, d, true)
	approveDocument(t, used, id, redirect)
	used.clock.add(oauth.DefaultCIMDTTL + 1e9) // the cached document is stale: not the cache answering
	unused := cimdHub(t, d, true)
	unused.clock.add(oauth.DefaultCIMDTTL + 1e9)
	if a, b := probe(used), probe(unused); a != b {
		t.Errorf("/authorize naming the document after eleven bogus ones: %d on the hub whose owner signed it in, %d on the other: a stranger can tell", a, b)
	}
}
