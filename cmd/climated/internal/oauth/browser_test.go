package oauth_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// ownerToken is the owner's secret in these tests.
const ownerToken = "the-owners-hub-token"

func checkOwner(_ *http.Request, given string) error {
	if given != ownerToken {
		return fmt.Errorf("that is not the hub's token")
	}
	return nil
}

// browser is a cookie-keeping client that stops at redirects, as a test
// needs to read where the hub sends the browser.
type browser struct {
	t *testing.T
	c *http.Client
}

func newBrowser(t *testing.T) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t, &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (b *browser) do(req *http.Request) (*http.Response, string) {
	b.t.Helper()
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

func (b *browser) get(u string) (*http.Response, string) {
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	return b.do(req)
}

func (b *browser) post(u string, form url.Values) (*http.Response, string) {
	req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.do(req)
}

var hiddenInput = regexp.MustCompile(`<input type="hidden" name="([a-z_]+)" value="([^"]*)">`)

// formOf reads the consent page's hidden fields, unescaped.
func formOf(page string) url.Values {
	v := url.Values{}
	for _, m := range hiddenInput.FindAllStringSubmatch(page, -1) {
		v.Set(m[1], htmlUnescape(m[2]))
	}
	return v
}

func htmlUnescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&#34;", `"`, "&#39;", "'").Replace(s)
}

// approve opens the consent page for q and approves it with owner.
func (b *browser) approve(h *hub, q url.Values, owner string) *http.Response {
	resp, page := b.get(h.base + oauth.PathAuthorize + "?" + q.Encode())
	if resp.StatusCode != http.StatusOK {
		b.t.Fatalf("consent page: %d %s", resp.StatusCode, page)
	}
	form := formOf(page)
	form.Set("owner", owner)
	form.Set("action", "approve")
	resp, _ = b.post(h.base+oauth.PathAuthorize, form)
	return resp
}
