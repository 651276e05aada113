package oauth_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// TestAdv39NoOpenRedirectBeforeApproval (adversarial, adv39): anyone can
// register a client (DCR) or name one by a Client ID Metadata Document on
// their own site, with any https redirect URI. Before this test, a link
// to the hub's own /authorize naming such a client and a bad parameter
// (response_type=token) sent the browser straight on to that URI, 303,
// with no page and no owner: the hub was an open redirector for phishing
// links that start with the household's trusted https name (RFC 9700
// §4.11.2: an authorization server "MUST only automatically redirect the
// user agent if it trusts the redirection URI"; a dynamically registered
// one is not trusted until the owner approves the client). With a
// document on the attacker's site the link never even expires. Errors are
// sent to the redirect URI only for a client the owner approved before.
func TestAdv39NoOpenRedirectBeforeApproval(t *testing.T) {
	const evil = "https://evil.example/phish"
	attack := func(h *hub, client string) url.Values {
		return url.Values{"client_id": {client}, "redirect_uri": {evil}, "response_type": {"token"}, "state": {"x"}}
	}
	t.Run("registered", func(t *testing.T) {
		h := newHub(t, func(o *oauth.Options) { o.Owner = checkOwner })
		client := h.register(evil)
		resp, _ := newBrowser(t).get(h.base + oauth.PathAuthorize + "?" + attack(h, client).Encode())
		if loc := resp.Header.Get("Location"); loc != "" || resp.StatusCode != http.StatusBadRequest {
			t.Errorf("a link naming a client nobody approved: %d to %q, want 400 on the hub's page", resp.StatusCode, loc)
		}
	})
	t.Run("document", func(t *testing.T) {
		d := newDocServer(t, evil)
		h := cimdHub(t, d, true)
		resp, _ := newBrowser(t).get(h.base + oauth.PathAuthorize + "?" + attack(h, d.URL+"/client.json").Encode())
		if loc := resp.Header.Get("Location"); loc != "" || resp.StatusCode != http.StatusBadRequest {
			t.Errorf("a link naming an unapproved client document: %d to %q, want 400 on the hub's page", resp.StatusCode, loc)
		}
	})
	t.Run("approved", func(t *testing.T) {
		// Once the owner approved the client, its redirect URI is trusted
		// and errors go there (RFC 6749 §4.1.2.1), as before.
		h, client := consentHub(t)
		if resp := newBrowser(t).approve(h, h.authQuery(client, consentRedirect), ownerToken); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("approval: %d", resp.StatusCode)
		}
		q := h.authQuery(client, consentRedirect)
		q.Set("response_type", "token")
		resp, _ := newBrowser(t).get(h.base + oauth.PathAuthorize + "?" + q.Encode())
		loc, _ := url.Parse(resp.Header.Get("Location"))
		if resp.StatusCode != http.StatusSeeOther || loc.Query().Get("error") != "unsupported_response_type" {
			t.Errorf("an approved client's bad request: %d to %q, want its redirect URI with the error", resp.StatusCode, loc)
		}
	})
}
