package oauth_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// TestNoOpenRedirectBeforeApproval (found by an adversarial pass): anyone can
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
func TestNoOpenRedirectBeforeApproval(t *testing.T) {
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

// docOracle is what an unauthenticated stranger learns, from /token and
// from GET /register/ID, about the client whose Client ID Metadata
// Document is id (a public URL such as ChatGPT's).
func docOracle(t *testing.T, h *hub, id, redirect string) (token int, read int) {
	t.Helper()
	token, _ = h.token(url.Values{"grant_type": {"authorization_code"}, "client_id": {id}, "code": {"guess"},
		"code_verifier": {verifier}, "redirect_uri": {redirect}})
	resp, err := http.Get(h.base + oauth.PathRegister + "/" + strings.ReplaceAll(id, "/", "%2F"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return token, resp.StatusCode
}

// TestDocumentClientsHaveNoRegistration (found by an adversarial pass): a
// client named by its Client ID Metadata Document never registered, so
// it has no registration_client_uri; yet GET /register/ followed by its
// URL with the slashes encoded (/register/https:%2F%2Fchatgpt.com%2F…)
// answered 200 and a "registration" once the owner had approved it, 404
// before: anyone could read whether this household connected ChatGPT
// (its client id is a public URL). A document client's id is answered
// like any unknown one.
func TestDocumentClientsHaveNoRegistration(t *testing.T) {
	const redirect = "https://app.example/cb"
	d := newDocServer(t, redirect)
	h := cimdHub(t, d, true)
	id := d.URL + "/client.json"
	_, before := docOracle(t, h, id, redirect)
	if resp := newBrowser(t).approve(h, h.authQuery(id, redirect), ownerToken); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("approval: %d", resp.StatusCode)
	}
	if _, after := docOracle(t, h, id, redirect); before != http.StatusNotFound || after != before {
		t.Errorf("GET /register/<document URL>: %d before the owner approved it, %d after; want 404 both times", before, after)
	}
}

// TestTokenDoesNotTellWhichDocumentsApproved (found by an adversarial
// pass): /token answered a made-up code or refresh token for a client
// document's URL 401 invalid_client while the hub did not list it and
// 400 invalid_grant once the owner had approved it, so one POST told
// anyone whether this household connected ChatGPT. The answer is now the
// same before the approval, after it and after a revoke.
func TestTokenDoesNotTellWhichDocumentsApproved(t *testing.T) {
	const redirect = "https://app.example/cb"
	d := newDocServer(t, redirect)
	h := cimdHub(t, d, true)
	id := d.URL + "/client.json"
	ask := func() string {
		code, cm := h.token(url.Values{"grant_type": {"authorization_code"}, "client_id": {id}, "code": {"guess"},
			"code_verifier": {verifier}, "redirect_uri": {redirect}})
		ref, rm := h.token(url.Values{"grant_type": {"refresh_token"}, "client_id": {id}, "refresh_token": {"made.up"}})
		return fmt.Sprintf("code %d %v, refresh %d %v", code, cm["error"], ref, rm["error"])
	}
	before := ask()
	if want := "code 400 invalid_grant, refresh 400 invalid_grant"; before != want {
		t.Errorf("before the owner approved the document: %s; want %s", before, want)
	}
	if resp := newBrowser(t).approve(h, h.authQuery(id, redirect), ownerToken); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("approval: %d", resp.StatusCode)
	}
	if after := ask(); after != before {
		t.Errorf("/token with a made-up code or refresh token: %s before the owner approved the document, %s after: a stranger can tell", before, after)
	}
	if err := h.srv.Revoke(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	if revoked := ask(); revoked != before {
		t.Errorf("after a revoke: %s; before the approval: %s", revoked, before)
	}
}
