package oauth_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// TestOneIPv6NetworkDoesNotStarveTheHouseholdsAssistant: a stranger with
// one IPv6 /64 (every rented server has one) sends GET /authorize naming
// bogus client documents, each from another address of the network, as
// the hub's proxy forwards them (X-Forwarded-For). Each address is a
// source with a budget of its own, so the stranger spends the ceiling of
// all sources together; the household's assistant, asking from its own
// address for its document, must still get it fetched and the consent
// page.
func TestOneIPv6NetworkDoesNotStarveTheHouseholdsAssistant(t *testing.T) {
	const redirect = "https://app.example/cb"
	d := newDocServer(t, redirect)
	h := cimdHub(t, d, true)
	b := newBrowser(t)
	from := func(addr, id string) (*http.Response, string) {
		req, _ := http.NewRequest(http.MethodGet, h.base+oauth.PathAuthorize+"?"+h.authQuery(id, redirect).Encode(), nil)
		req.Header.Set("X-Forwarded-For", addr) // what the proxy appends
		return b.do(req)
	}
	for i := range 80 {
		from(fmt.Sprintf("2001:db8:77:1::%x", i+1), fmt.Sprintf("%s/bogus-%d.json", d.URL, i))
	}
	resp, page := from("198.51.100.7", d.URL+"/client.json")
	if resp.StatusCode != http.StatusOK {
		i := strings.Index(page, "This sign-in")
		t.Errorf("the household's assistant after one /64's flood: %d %q, want its document fetched and the consent page", resp.StatusCode, page[max(i, 0):min(len(page), max(i, 0)+120)])
	}
}
