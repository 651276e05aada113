package oauth

import (
	"encoding/json"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// scopes is every scope the hub grants, in the order metadata lists them.
var scopes = []string{ScopeRead, ScopeAlertsWrite}

// resourceMetadata is the RFC 9728 document of the MCP endpoint, served
// by go-sdk's handler (GET, with CORS for browser-based clients).
func (s *Server) resourceMetadata() http.Handler {
	return auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource:               s.opts.Resource,
		AuthorizationServers:   []string{s.opts.Issuer},
		ScopesSupported:        scopes,
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "climated",
	})
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
		Issuer:                            iss,
		AuthorizationEndpoint:             iss + PathAuthorize,
		TokenEndpoint:                     iss + PathToken,
		RegistrationEndpoint:              iss + PathRegister,
		ScopesSupported:                   scopes,
		ResponseTypesSupported:            []string{"code"},
		GrantTypesSupported:               []string{"authorization_code", "refresh_token"},
		TokenEndpointAuthMethodsSupported: []string{"none"},
		CodeChallengeMethodsSupported:     []string{"S256"},
		ClientIDMetadataDocumentSupported: true,
		// RFC 9207: the consent page adds iss to its redirect.
		AuthorizationResponseIssParameterSupported: true,
	}}
}

func (s *Server) asMetadata() http.Handler {
	body, err := json.Marshal(s.authServerMeta())
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "use GET", http.StatusMethodNotAllowed)
			return
		}
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})
}
