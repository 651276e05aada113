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
	// ResourceMetadataURLFor is the resource metadata of the endpoint at
	// path (/sse), whose resource is that endpoint's URL: a client refuses
	// metadata naming another resource than the URL it was given.
	ResourceMetadataURLFor(path string) string
}

// metadataPath is the endpoint whose resource metadata a request to path
// is told of: /message is the SSE transport's, as /sse is.
func metadataPath(path string) string {
	if path == "/message" {
		return "/sse"
	}
	return path
}

// scopeRead is the scope every MCP request needs; the tools that change
// things need theirs besides (Options.ToolScope, scopeGate).
const scopeRead = mcp.ScopeRead

// wrapMCP is wrap for the MCP transport at path: the static token still
// opens everything, and besides it an OAuth access token minted for this
// hub, checked by go-sdk's RequireBearerToken, whose 401 names the
// endpoint's resource metadata (RFC 9728) so that a client can go and
// sign in.
func (g *guard) wrapMCP(path string, next http.Handler) http.Handler {
	if g.oauth == nil {
		return g.wrap(next)
	}
	gated := g.scopeGate(next)
	withOAuth := auth.RequireBearerToken(g.oauth.Verify, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL: g.oauth.ResourceMetadataURLFor(metadataPath(path)),
		Scopes:              []string{scopeRead},
	})(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if tw, ok := w.(*tokenErrorWriter); ok {
			w = tw.ResponseWriter // past the check: the handlers write as they are
		}
		gated.ServeHTTP(w, r)
	}))
	return g.checkHeaders(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if g.hasToken && g.staticToken(r) {
			next.ServeHTTP(w, r)
			return
		}
		if _, given := bearerToken(r); given {
			w = &tokenErrorWriter{ResponseWriter: w}
		}
		withOAuth.ServeHTTP(w, r)
	}))
}

// bearerToken is the token of r's Authorization header, as go-sdk's
// RequireBearerToken reads it.
func bearerToken(r *http.Request) (string, bool) {
	fields := strings.Fields(r.Header.Get("Authorization"))
	if len(fields) != 2 || !strings.EqualFold(fields[0], "bearer") {
		return "", false
	}
	return fields[1], true
}

// tokenErrorWriter adds error="invalid_token" to the 401 that go-sdk's
// RequireBearerToken answers a request that came with a token it refused
// (unknown, revoked, expired): RFC 6750 §3.1 asks for it, and clients
// tell by it that they should refresh or sign in again rather than that
// they sent no token. The SDK (v1.8.0) writes the challenge without it.
type tokenErrorWriter struct {
	http.ResponseWriter
}

func (w *tokenErrorWriter) WriteHeader(code int) {
	if code == http.StatusUnauthorized {
		if c := w.Header().Get("WWW-Authenticate"); strings.HasPrefix(c, "Bearer ") && !strings.Contains(c, "error=") {
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token", `+strings.TrimPrefix(c, "Bearer "))
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

// staticToken reports whether r carries the hub's static token.
func (g *guard) staticToken(r *http.Request) bool {
	given, ok := strings.CutPrefix(r.Header.Get("Authorization"), authScheme)
	return ok && g.matches(given)
}
