package oauth

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// regRequest is what the hub reads of an RFC 7591 registration request;
// other members are ignored, whatever their type (Claude's python-httpx
// client sends fields go-sdk's oauthex types would refuse to decode).
type regRequest struct {
	RedirectURIs            []string `json:"redirect_uris"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method,omitempty"`
	GrantTypes              []string `json:"grant_types,omitempty"`
	ResponseTypes           []string `json:"response_types,omitempty"`
	ClientName              string   `json:"client_name,omitempty"`
	Scope                   string   `json:"scope,omitempty"`
}

// regResponse is the registration (RFC 7591 §3.2.1): what the hub
// registered, which may differ from what was asked, and where the client
// reads it back (registration_client_uri, RFC 7592 §3; Claude's connector
// expects one: twentyhq/twenty#19858).
type regResponse struct {
	regRequest
	ClientID              string `json:"client_id"`
	ClientIDIssuedAt      int64  `json:"client_id_issued_at"`
	RegistrationClientURI string `json:"registration_client_uri"`
}

// serveRegister is Dynamic Client Registration (RFC 7591) for public
// clients: rate limited, bounded in number, answered with a client id only.
func (s *Server) serveRegister(w http.ResponseWriter, r *http.Request) {
	if !s.register.allow(r) {
		w.Header().Set("Retry-After", strconv.Itoa(int(1/float64(s.opts.RegisterRate))+1))
		s.writeError(w, r, &oauthError{http.StatusTooManyRequests, "temporarily_unavailable", "too many registrations: try again in a minute"})
		return
	}
	var meta regRequest
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
	s.opts.Logger.Info("oauth client registered", "client_id", c.ID, "name", c.Name, "asked_auth_method", meta.TokenEndpointAuthMethod)
	writeJSON(w, http.StatusCreated, s.registration(&c, s.opts.Now().Unix()))
}

// registration is the hub's answer for c. Every client is public: one
// that asked for a secret (Claude asks for client_secret_post:
// anthropics/claude-ai-mcp#1043) is registered all the same and told
// "none", which RFC 7591 §3.2.1 lets a server answer; a client then
// authenticates as the registration says (python's MCP SDK, on which
// Claude's connector runs, sends a secret only when it was given one).
//
// Its scope is every scope the client may be granted, whatever it asked
// for (Claude asks for "claudeai"): the owner decides at consent.
func (s *Server) registration(c *Client, issued int64) *regResponse {
	return &regResponse{
		regRequest: regRequest{RedirectURIs: c.RedirectURIs, TokenEndpointAuthMethod: "none",
			GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"},
			ClientName: c.Name, Scope: strings.Join(grantable(), " ")},
		ClientID: c.ID, ClientIDIssuedAt: issued,
		RegistrationClientURI: s.opts.Issuer + PathRegister + "/" + c.ID,
	}
}

// serveClientInfo answers GET registration_client_uri: the registration
// as it is now, or invalid_client when the client is gone (revoked, or
// never approved and expired), so that a client can tell it must register
// again. What it shows is public: the consent page shows the same to
// anyone with the client id.
func (s *Server) serveClientInfo(w http.ResponseWriter, r *http.Request) {
	id := strings.TrimPrefix(r.URL.Path, PathRegister+"/")
	var c *Client
	var err error
	// A client named by its Client ID Metadata Document never registered
	// and was given no registration_client_uri; answering its URL (slashes
	// encoded) with the listing told anyone whether the owner approved it
	// (TestDocumentClientsHaveNoRegistration).
	if !isCIMD(id) {
		c, err = s.client(r.Context(), id)
	}
	if err == nil && c == nil {
		err = &oauthError{http.StatusNotFound, "invalid_client", fmt.Sprintf("client %s is not registered with this hub (revoked, or its registration expired): register again", id)}
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s.registration(c, 0))
}

func invalidMetadata(desc string) *oauthError {
	return &oauthError{http.StatusBadRequest, "invalid_client_metadata", desc}
}

// checkRegistration refuses what a public client of this hub cannot be.
// The auth method is not among it: any is answered with none.
func checkRegistration(m *regRequest) error {
	if len(m.RedirectURIs) == 0 || len(m.RedirectURIs) > maxRedirectURIs {
		return &oauthError{http.StatusBadRequest, "invalid_redirect_uri", fmt.Sprintf("give 1 to %d redirect_uris (got %d)", maxRedirectURIs, len(m.RedirectURIs))}
	}
	for _, u := range m.RedirectURIs {
		if err := checkRedirectURI(u); err != nil {
			return &oauthError{http.StatusBadRequest, "invalid_redirect_uri", err.Error()}
		}
	}
	if !allowed(m.GrantTypes, []string{"authorization_code", "refresh_token"}) {
		return invalidMetadata(fmt.Sprintf("grant_types %q: the hub grants authorization_code and refresh_token", m.GrantTypes))
	}
	if !allowed(m.ResponseTypes, []string{"code"}) {
		return invalidMetadata(fmt.Sprintf("response_types %q: the hub answers code only", m.ResponseTypes))
	}
	return nil
}
