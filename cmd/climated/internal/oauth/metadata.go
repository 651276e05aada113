package oauth

import (
	"encoding/json"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// scopes is every scope the hub grants, in the order metadata lists them.
var scopes = []string{ScopeRead, ScopeAlertsWrite}

// grantable is every scope a sign-in can be granted: scopes and
// offline_access.
func grantable() []string { return append(scopes[:len(scopes):len(scopes)], ScopeOfflineAccess) }

// ScopeOfflineAccess asks for a refresh token (OpenID Connect Core §11).
// The hub gives every sign-in one, so it grants this scope to whoever asks
// and says so in the token's scope: ChatGPT asks for it, and clients that
// see it missing from the granted scope may not refresh (docs/oauth.md).
const ScopeOfflineAccess = "offline_access"

// resourceMetadata is the RFC 9728 document of one MCP endpoint: GET,
// with CORS for browser-based clients (getCORS).
func (s *Server) resourceMetadata(resource string) http.Handler {
	body, err := json.Marshal(&oauthex.ProtectedResourceMetadata{
		Resource:               resource,
		AuthorizationServers:   []string{s.opts.Issuer},
		ScopesSupported:        scopes,
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "climated",
	})
	return s.document(body, err)
}

// asMeta is go-sdk's RFC 8414 document with jwks_uri left out when empty:
// the hub signs nothing, and oauthex.AuthServerMeta would send "".
type asMeta struct {
	oauthex.AuthServerMeta
	JWKSURI string `json:"jwks_uri,omitempty"`
}

func (s *Server) authServerMeta() asMeta {
	iss := s.opts.Issuer
	return asMeta{AuthServerMeta: oauthex.AuthServerMeta{
		Issuer:                 iss,
		AuthorizationEndpoint:  iss + PathAuthorize,
		TokenEndpoint:          iss + PathToken,
		RegistrationEndpoint:   iss + PathRegister,
		ScopesSupported:        grantable(),
		ResponseTypesSupported: []string{"code"},
		GrantTypesSupported:    []string{"authorization_code", "refresh_token"},
		// Every client is public: a registration that asks for a secret
		// is answered with none (register.go).
		TokenEndpointAuthMethodsSupported: []string{"none"},
		CodeChallengeMethodsSupported:     []string{"S256"},
		ClientIDMetadataDocumentSupported: true,
		// RFC 9207: the consent page adds iss to its redirect.
		AuthorizationResponseIssParameterSupported: true,
	}}
}

func (s *Server) asMetadata() http.Handler {
	body, err := json.Marshal(s.authServerMeta())
	return s.document(body, err)
}

// document serves a metadata document (err: why it could not be made).
func (s *Server) document(body []byte, err error) http.Handler {
	return getCORS(func(w http.ResponseWriter, r *http.Request) {
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})
}
