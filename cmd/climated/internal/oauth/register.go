package oauth

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// serveRegister is Dynamic Client Registration (RFC 7591) for public
// clients: rate limited, bounded in number, answered with a client id only.
func (s *Server) serveRegister(w http.ResponseWriter, r *http.Request) {
	if !s.register.Allow() {
		w.Header().Set("Retry-After", strconv.Itoa(int(1/float64(s.opts.RegisterRate))+1))
		writeJSON(w, http.StatusTooManyRequests, &oauthError{Code: "temporarily_unavailable", Desc: "too many registrations: try again in a minute"})
		return
	}
	var meta oauthex.ClientRegistrationMetadata
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody)).Decode(&meta); err != nil {
		s.writeError(w, r, invalidMetadata(fmt.Sprintf("the body is not a JSON registration request of at most %d bytes: %v", maxBody, err)))
		return
	}
	if err := checkRegistration(&meta); err != nil {
		s.writeError(w, r, err)
		return
	}
	c := Client{ID: "dcr_" + newSecret()[:24], Name: cleanName(meta.ClientName), RedirectURIs: meta.RedirectURIs}
	if err := s.addClient(r.Context(), c); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.opts.Logger.Info("oauth client registered", "client_id", c.ID, "name", c.Name)
	meta.ClientName = c.Name
	meta.TokenEndpointAuthMethod = "none"
	meta.GrantTypes = []string{"authorization_code", "refresh_token"}
	meta.ResponseTypes = []string{"code"}
	writeJSON(w, http.StatusCreated, &oauthex.ClientRegistrationResponse{
		ClientRegistrationMetadata: meta,
		ClientID:                   c.ID,
		ClientIDIssuedAt:           s.opts.Now(),
	})
}

func invalidMetadata(desc string) *oauthError {
	return &oauthError{http.StatusBadRequest, "invalid_client_metadata", desc}
}

// checkRegistration refuses what a public client of this hub cannot be.
func checkRegistration(m *oauthex.ClientRegistrationMetadata) error {
	if len(m.RedirectURIs) == 0 || len(m.RedirectURIs) > maxRedirectURIs {
		return &oauthError{http.StatusBadRequest, "invalid_redirect_uri", fmt.Sprintf("give 1 to %d redirect_uris (got %d)", maxRedirectURIs, len(m.RedirectURIs))}
	}
	for _, u := range m.RedirectURIs {
		if err := checkRedirectURI(u); err != nil {
			return &oauthError{http.StatusBadRequest, "invalid_redirect_uri", err.Error()}
		}
	}
	if m.TokenEndpointAuthMethod != "" && m.TokenEndpointAuthMethod != "none" {
		return invalidMetadata(fmt.Sprintf("token_endpoint_auth_method %q: the hub has public clients only, use \"none\" with PKCE", m.TokenEndpointAuthMethod))
	}
	if !allowed(m.GrantTypes, []string{"authorization_code", "refresh_token"}) {
		return invalidMetadata(fmt.Sprintf("grant_types %q: the hub grants authorization_code and refresh_token", m.GrantTypes))
	}
	if !allowed(m.ResponseTypes, []string{"code"}) {
		return invalidMetadata(fmt.Sprintf("response_types %q: the hub answers code only", m.ResponseTypes))
	}
	return nil
}
