package oauth_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// TestAuthServerMetadata: go-sdk's client reads the RFC 8414 document
// (it checks the issuer and that PKCE is offered) and finds the
// endpoints, grants and methods the hub serves.
func TestAuthServerMetadata(t *testing.T) {
	h := newHub(t, nil)
	m, err := oauthex.GetAuthServerMeta(context.Background(), h.base+oauth.PathASMetadata, h.base, http.DefaultClient)
	if err != nil || m == nil {
		t.Fatalf("GetAuthServerMeta: %v, %v", m, err)
	}
	if !slices.Equal(m.CodeChallengeMethodsSupported, []string{"S256"}) || !slices.Contains(m.TokenEndpointAuthMethodsSupported, "none") ||
		!m.ClientIDMetadataDocumentSupported || !m.AuthorizationResponseIssParameterSupported || m.RegistrationEndpoint != h.base+oauth.PathRegister ||
		m.TokenEndpoint != h.base+oauth.PathToken || m.AuthorizationEndpoint != h.base+oauth.PathAuthorize {
		t.Errorf("metadata: %+v", m)
	}
	resp, err := http.Get(h.base + oauth.PathASMetadata)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var raw map[string]any
	json.NewDecoder(resp.Body).Decode(&raw)
	if _, ok := raw["jwks_uri"]; ok {
		t.Errorf("jwks_uri is sent (%q) though the hub signs nothing", raw["jwks_uri"])
	}
}

// TestProtectedResourceMetadata: the RFC 9728 document is served at the
// well-known path and at its /mcp suffix, and go-sdk's client accepts it.
func TestProtectedResourceMetadata(t *testing.T) {
	h := newHub(t, nil)
	if u := h.srv.ResourceMetadataURL(); u != h.base+"/.well-known/oauth-protected-resource/mcp" {
		t.Errorf("ResourceMetadataURL %q", u)
	}
	for _, p := range []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"} {
		m, err := oauthex.GetProtectedResourceMetadata(context.Background(), h.base+p, h.base+"/mcp", http.DefaultClient)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if m.Resource != h.base+"/mcp" || !slices.Equal(m.AuthorizationServers, []string{h.base}) || !slices.Equal(m.ScopesSupported, []string{"climate:read", "alerts:write"}) {
			t.Errorf("%s: %+v", p, m)
		}
	}
	resp, err := http.Post(h.base+oauth.PathASMetadata, "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST metadata: %d, want 405", resp.StatusCode)
	}
}
