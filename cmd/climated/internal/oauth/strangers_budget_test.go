package oauth_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

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
	if resp := newBrowser(t).approve(used, used.authQuery(id, redirect), ownerToken); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("approval: %d", resp.StatusCode)
	}
	used.clock.add(oauth.DefaultCIMDTTL + 1e9) // the cached document is stale: not the cache answering
	unused := cimdHub(t, d, true)
	unused.clock.add(oauth.DefaultCIMDTTL + 1e9)
	if a, b := probe(used), probe(unused); a != b {
		t.Errorf("/authorize naming the document after eleven bogus ones: %d on the hub whose owner signed it in, %d on the other: a stranger can tell", a, b)
	}
}
