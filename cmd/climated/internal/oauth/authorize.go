package oauth

import (
	"context"
	"crypto/subtle"
	"errors"
	"net/http"
	"net/url"
	"strings"
)

// csrfCookie carries the consent form's token; the form must send the
// same value back (a site that cannot read the cookie cannot forge it).
const csrfCookie = "climated_oauth_csrf"

// ErrNoOwner is the consent page's answer when the hub has no way to
// tell its owner (Options.Owner is nil).
var ErrNoOwner = errors.New("this hub has no owner sign-in configured: it cannot approve assistants")

// serveAuthorize shows the consent page (GET) and takes its answer (POST).
func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
		s.showConsent(w, r)
	case http.MethodPost:
		s.takeConsent(w, r)
	default:
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "use GET or POST", http.StatusMethodNotAllowed)
	}
}

func (s *Server) showConsent(w http.ResponseWriter, r *http.Request) {
	ar, ok := s.authRequest(w, r, r.URL.Query())
	if !ok {
		return
	}
	csrf := newSecret()
	http.SetCookie(w, &http.Cookie{Name: csrfCookie, Value: csrf, Path: PathAuthorize, HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: strings.HasPrefix(s.opts.Issuer, "https:")})
	s.consentPage(w, http.StatusOK, ar, r.URL.Query(), csrf, "")
}

func (s *Server) takeConsent(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if err := r.ParseForm(); err != nil {
		s.errorPage(w, http.StatusBadRequest, "The form could not be read: start the sign-in again from the assistant.")
		return
	}
	c, err := r.Cookie(csrfCookie)
	given := r.PostForm.Get("csrf")
	// An empty cookie equals an empty field: a page that can set a cookie
	// for the hub (another port of its host, say) could then forge both.
	if err != nil || c.Value == "" || subtle.ConstantTimeCompare([]byte(c.Value), []byte(given)) != 1 {
		s.refused(r, "csrf", "the consent form's CSRF cookie is missing or differs (a form left open too long, or posted from another site): start the sign-in again from the assistant")
		s.errorPage(w, http.StatusForbidden, "This form expired or came from another site: start the sign-in again from the assistant.")
		return
	}
	ar, ok := s.authRequest(w, r, r.PostForm)
	if !ok {
		return
	}
	if r.PostForm.Get("action") != "approve" {
		s.opts.Logger.Info("oauth consent denied", "client_id", ar.Client.ID)
		s.redirect(w, r, ar, url.Values{"error": {"access_denied"}, "error_description": {"the owner declined"}})
		return
	}
	ar.Scopes = ownerGrant(ar.Scopes, r.PostForm)
	if err := s.checkOwner(r, r.PostForm.Get("owner")); err != nil {
		s.refused(r, "owner", "the consent page was sent without the hub's token ("+err.Error()+"): type the token climated token prints")
		s.consentPage(w, http.StatusUnauthorized, ar, r.PostForm, c.Value, err.Error())
		return
	}
	code, err := s.IssueCode(r.Context(), ar)
	if err != nil {
		s.refused(r, "issue_code", err.Error())
		s.errorPage(w, http.StatusServiceUnavailable, "The hub could not finish the sign-in: "+err.Error())
		return
	}
	s.opts.Logger.Info("oauth consent approved", "client_id", ar.Client.ID, "scope", strings.Join(ar.Scopes, " "), "ignored", strings.Join(ar.Ignored, " "))
	s.redirect(w, r, ar, url.Values{"code": {code}})
}

func (s *Server) checkOwner(r *http.Request, given string) error {
	if s.opts.Owner == nil {
		return ErrNoOwner
	}
	return s.opts.Owner(r, given)
}

// authRequest checks q; when it fails it has answered: on the page when
// the redirect URI cannot be trusted (not registered, or of a client the
// owner never approved), else at the redirect URI.
func (s *Server) authRequest(w http.ResponseWriter, r *http.Request, q url.Values) (*AuthRequest, bool) {
	ar, err := s.CheckAuthRequest(r.Context(), requestSource(r), q)
	var ae *AuthError
	switch {
	case err == nil:
		return ar, true
	case errors.As(err, &ae) && ae.Redirect && s.trusted(r.Context(), q.Get("client_id")):
		s.refused(r, ae.Code, ae.Desc)
		s.redirect(w, r, &AuthRequest{RedirectURI: q.Get("redirect_uri"), State: q.Get("state")},
			url.Values{"error": {ae.Code}, "error_description": {ae.Desc}})
	case errors.As(err, &ae):
		s.refused(r, ae.Code, ae.Desc)
		s.errorPage(w, http.StatusBadRequest, "This sign-in cannot go on: "+ae.Desc+".")
	default:
		s.opts.Logger.Error("oauth authorize", "err", err)
		s.errorPage(w, http.StatusInternalServerError, "The hub could not check this sign-in; its log says why.")
	}
	return nil, false
}

// redirect sends the browser back to the client with v, the state
// unchanged and the issuer (RFC 9207).
func (s *Server) redirect(w http.ResponseWriter, r *http.Request, ar *AuthRequest, v url.Values) {
	u, _ := url.Parse(ar.RedirectURI) // checked when registered
	q := u.Query()
	for k := range v {
		q.Set(k, v.Get(k))
	}
	if ar.State != "" {
		q.Set("state", ar.State)
	}
	q.Set("iss", s.opts.Issuer)
	u.RawQuery = q.Encode()
	http.Redirect(w, r, u.String(), http.StatusSeeOther)
}

// trusted reports whether the owner approved client id before (a grant
// made or a code issued for it): only then were its redirect URIs shown
// to the owner, and may the hub send a refused request's error there
// without a page. Anyone can register a client, or put a Client ID
// Metadata Document on their own site, naming any https redirect URI: a
// link to /authorize naming it would otherwise make the hub an open
// redirector that starts with its trusted name (RFC 9700 §4.11.2).
// A client document's URL is public (ChatGPT's, Claude's), so its errors
// always go on the hub's page: a redirect after approval, a page before,
// would tell a stranger whether the household approved that assistant.
func (s *Server) trusted(ctx context.Context, id string) bool {
	if isCIMD(id) {
		return false
	}
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM oauth_clients WHERE id = ? AND (last_used > 0
		OR id IN (SELECT client_id FROM oauth_grants) OR id IN (SELECT client_id FROM oauth_codes))`, id).Scan(&n)
	return err == nil && n > 0
}
