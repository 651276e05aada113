package main

import (
	"context"
	"crypto/x509"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/oauth"
	"github.com/climated/climated/cmd/climated/internal/token"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/internal/testutil/chromium"
)

// oauthHub starts a hub of the demo house with public_url set to its own
// loopback address; seam (nil for none) adjusts its authorization
// server. It returns the public URL and the hub's token, with which the
// owner approves.
func oauthHub(t *testing.T, seam func(*oauth.Options)) (string, string) {
	t.Helper()
	base, owner, _ := oauthHubEnv(t, serveEnv{oauth: seam})
	return base, owner
}

// oauthHubEnv is oauthHub with the seams of env; it also returns the
// hub's configuration.
func oauthHubEnv(t *testing.T, env serveEnv) (string, string, config.Config) {
	t.Helper()
	cfg := demoConfig(t)
	port := testutil.FreePort(t)
	cfg.Listen = "127.0.0.1:" + port
	cfg.PublicURL = "http://127.0.0.1:" + port
	runHubEnv(t, cfg, env)
	owner, err := token.LoadOrCreate(cfg.TokenPath())
	if err != nil {
		t.Fatal(err)
	}
	return cfg.PublicURL, owner, cfg
}

// TestOAuthSignInThroughServe: a hub with public_url lets go-sdk's own
// OAuth client register (DCR), sends the owner to the consent page,
// where the hub's token approves in chromium allowing alerts, and the
// client reads get_climate and creates an alert; without a token, /mcp
// answers 401 naming the resource metadata, as the Server Card does.
// After the owner revokes it, the same client registers again and signs
// in.
func TestOAuthSignInThroughServe(t *testing.T) {
	bctx := chromium.Browser(t)
	base, owner, cfg := oauthHubEnv(t, serveEnv{})
	resp, err := http.Post(base+"/mcp", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if want := `resource_metadata="` + base + `/.well-known/oauth-protected-resource/mcp"`; resp.StatusCode != 401 || !strings.Contains(resp.Header.Get("WWW-Authenticate"), want) {
		t.Errorf("/mcp without a token: %d, WWW-Authenticate %q; want 401 with %s", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), want)
	}
	// The Server Card says the same, without a token.
	if auth := serverCard(t, base).Meta["io.github.climated/auth"]; auth["kind"] != "oauth" || auth["resource_metadata"] != base+"/.well-known/oauth-protected-resource/mcp" {
		t.Errorf("the Server Card's auth: %v", auth)
	}
	const redirect = "http://127.0.0.1:9/callback"
	handler, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "go-sdk", RedirectURIs: []string{redirect}}},
		RedirectURL:              redirect,
		AuthorizationCodeFetcher: chromiumApproves(bctx, owner, redirect),
	})
	if err != nil {
		t.Fatal(err)
	}
	readClimate(t, base, handler)
	revokeAll(t, cfg)
	readClimate(t, base, handler)
}

// TestOAuthCIMDThroughServe: go-sdk's client names itself by a Client ID
// Metadata Document, served over TLS on loopback with a test CA; the hub
// (told by its test seam to trust that CA and to reach loopback, which
// nothing in the configuration can tell it) fetches it, the owner
// approves in chromium, and the client reads get_climate without ever
// registering.
func TestOAuthCIMDThroughServe(t *testing.T) {
	bctx := chromium.Browser(t)
	const redirect = "http://127.0.0.1:9/cimd-callback"
	docs := newClientDocs(t, "go-sdk by its document", redirect)
	base, owner := oauthHub(t, docs.trust)
	handler, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		ClientIDMetadataDocumentConfig: &auth.ClientIDMetadataDocumentConfig{URL: docs.URL + "/client.json"},
		RedirectURL:                    redirect,
		AuthorizationCodeFetcher:       chromiumApproves(bctx, owner, redirect),
	})
	if err != nil {
		t.Fatal(err)
	}
	readClimate(t, base, handler)
	if docs.fetched.Load() == 0 {
		t.Error("the hub never fetched the client's document")
	}
}

// clientDocs serves a client's Client ID Metadata Document over TLS on
// loopback, with a CA of its own, at any path: the document names its
// own URL as client_id.
type clientDocs struct {
	*httptest.Server
	fetched atomic.Int32
}

func newClientDocs(t *testing.T, name, redirect string) *clientDocs {
	d := &clientDocs{}
	d.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.fetched.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"client_id":%q,"client_name":%q,"redirect_uris":[%q],"token_endpoint_auth_method":"none"}`,
			d.URL+r.URL.Path, name, redirect)
	}))
	t.Cleanup(d.Close)
	return d
}

// trust is the hub's test seam for d: its CA trusted, and loopback,
// where it listens, let through the address check.
func (d *clientDocs) trust(o *oauth.Options) {
	pool := x509.NewCertPool()
	pool.AddCert(d.Certificate())
	o.CIMDRootCAs = pool
	o.CIMDAllowAddr = func(a netip.Addr) bool { return a.IsLoopback() }
}

// readClimate connects go-sdk's client to the hub's /mcp with handler,
// which signs in, and calls get_climate and create_alert.
func readClimate(t *testing.T, base string, handler auth.OAuthHandler) {
	t.Helper()
	ctx := context.Background()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "oauth-test"}, nil).Connect(ctx,
		&sdk.StreamableClientTransport{Endpoint: base + "/mcp", OAuthHandler: handler}, nil)
	if err != nil {
		t.Fatalf("connect with OAuth: %v", err)
	}
	defer cs.Close()
	useToolsOver(t, ctx, cs, &strings.Builder{})
}

var hiddenField = regexp.MustCompile(`<input type="hidden" name="([a-z_]+)" value="([^"]*)">`)

// chromiumApproves is go-sdk's AuthorizationCodeFetcher as the owner's
// browser: the consent page opens in chromium, the owner approves with
// the hub's token allowing alerts, and the code, state and iss are read
// from where the hub sends the browser (redirect, caught in the browser).
func chromiumApproves(bctx context.Context, owner, redirect string) auth.AuthorizationCodeFetcher {
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		u, err := chromium.Approve(bctx, args.URL, owner, redirect, oauth.ScopeAlertsWrite)
		if err != nil {
			return nil, err
		}
		q := u.Query()
		return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
	}
}
