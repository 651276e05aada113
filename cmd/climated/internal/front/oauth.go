package front

import (
	"context"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/climated/climated/mcp"
)

// OAuth is what the front needs of the hub's authorization server
// (package oauth): checking its access tokens, and where a client finds
// how to get one.
type OAuth interface {
	Verify(ctx context.Context, token string, r *http.Request) (*auth.TokenInfo, error)
	ResourceMetadataURL() string
}

// scopeRead is the scope every MCP request needs; the tools that change
// things need theirs besides (Options.ToolScope, scopeGate).
const scopeRead = mcp.ScopeRead

// wrapMCP is wrap for the MCP transports: the static token still opens
// everything, and besides it an OAuth access token minted for this hub's
// /mcp, checked by go-sdk's RequireBearerToken, whose 401 names the
// resource metadata (RFC 9728) so that a client can go and sign in.
func (g *guard) wrapMCP(next http.Handler) http.Handler {
	if g.oauth == nil {
		return g.wrap(next)
	}
	withOAuth := auth.RequireBearerToken(g.oauth.Verify, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL: g.oauth.ResourceMetadataURL(),
		Scopes:              []string{scopeRead},
	})(g.scopeGate(next))
	return g.checkHeaders(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if g.hasToken && g.staticToken(r) {
			next.ServeHTTP(w, r)
			return
		}
		withOAuth.ServeHTTP(w, r)
	}))
}

// staticToken reports whether r carries the hub's static token.
func (g *guard) staticToken(r *http.Request) bool {
	given, ok := strings.CutPrefix(r.Header.Get("Authorization"), authScheme)
	return ok && g.matches(given)
}
