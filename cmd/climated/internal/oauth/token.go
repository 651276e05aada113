package oauth

import (
	"fmt"
	"net/http"
)

// tokenRequest is the form of a /token request.
type tokenRequest struct {
	grantType, clientID, code, redirectURI, verifier, refresh, resource string
}

// serveToken is the token endpoint: authorization_code with PKCE, and
// refresh_token with rotation. Clients are public (auth method none).
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	req, err := parseTokenRequest(w, r)
	if err == nil {
		err = s.requireListed(r.Context(), req.clientID)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var resp *tokenResponse
	switch req.grantType {
	case "authorization_code":
		resp, err = s.redeemCode(r.Context(), req)
	case "refresh_token":
		resp, err = s.refresh(r.Context(), req)
	default:
		err = &oauthError{http.StatusBadRequest, "unsupported_grant_type", fmt.Sprintf("grant_type %q: the hub grants authorization_code and refresh_token", req.grantType)}
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

// parseTokenRequest reads the form (bounded), refusing repeated
// parameters (RFC 6749 §3.2) and client secrets the hub never issued.
func parseTokenRequest(w http.ResponseWriter, r *http.Request) (tokenRequest, error) {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if err := r.ParseForm(); err != nil {
		return tokenRequest{}, invalidRequest(fmt.Sprintf("the body is not a form of at most %d bytes: %v", maxBody, err))
	}
	for k, v := range r.PostForm {
		if len(v) > 1 {
			return tokenRequest{}, invalidRequest(fmt.Sprintf("parameter %s is given %d times", k, len(v)))
		}
	}
	if _, _, ok := r.BasicAuth(); ok || r.PostForm.Has("client_secret") {
		return tokenRequest{}, invalidClient("the hub's clients are public: send client_id and no secret")
	}
	f := r.PostForm
	req := tokenRequest{f.Get("grant_type"), f.Get("client_id"), f.Get("code"), f.Get("redirect_uri"), f.Get("code_verifier"), f.Get("refresh_token"), f.Get("resource")}
	if req.clientID == "" {
		return req, invalidClient("client_id is missing")
	}
	return req, nil
}
