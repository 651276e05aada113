package main

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/token"
	"github.com/climated/climated/internal/testutil"
)

// TestOAuthSignInThroughServe: a hub with public_url lets go-sdk's own
// OAuth client register, sends the owner to the consent page, where the
// hub's token approves, and the client reads get_climate; without a
// token, /mcp answers 401 naming the resource metadata.
func TestOAuthSignInThroughServe(t *testing.T) {
	cfg, owner := oauthServe(t)
	resp, err := http.Post(cfg.PublicURL+"/mcp", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if want := `resource_metadata="` + cfg.PublicURL + `/.well-known/oauth-protected-resource/mcp"`; resp.StatusCode != 401 || !strings.Contains(resp.Header.Get("WWW-Authenticate"), want) {
		t.Errorf("/mcp without a token: %d, WWW-Authenticate %q; want 401 with %s", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), want)
	}
	handler, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "go-sdk", RedirectURIs: []string{"http://127.0.0.1:9/callback"}}},
		RedirectURL:              "http://127.0.0.1:9/callback",
		AuthorizationCodeFetcher: ownerApproves(owner),
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "oauth-test"}, nil).Connect(ctx,
		&sdk.StreamableClientTransport{Endpoint: cfg.PublicURL + "/mcp", OAuthHandler: handler}, nil)
	if err != nil {
		t.Fatalf("connect with OAuth: %v", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_climate"})
	if err != nil || res.IsError || !strings.Contains(fmt.Sprint(res.StructuredContent), "Indoor") {
		t.Fatalf("get_climate: %v %+v", err, res)
	}
}

// oauthServe starts a hub with the demo house and public_url set (on
// loopback); it returns its configuration and the owner's token.
func oauthServe(t *testing.T) (config.Config, string) {
	t.Helper()
	cfg := demoConfig(t)
	port := testutil.FreePort(t)
	cfg.Listen = "127.0.0.1:" + port
	cfg.PublicURL = "http://127.0.0.1:" + port
	startHub(t, cfg)
	owner, err := token.LoadOrCreate(cfg.TokenPath())
	if err != nil {
		t.Fatal(err)
	}
	return cfg, owner
}

var hiddenField = regexp.MustCompile(`<input type="hidden" name="([a-z_]+)" value="([^"]*)">`)

// ownerApproves opens the consent page as the owner's browser would,
// approves with the hub's token and reads the code from the redirect.
func ownerApproves(owner string) auth.AuthorizationCodeFetcher {
	return approveOver(&http.Client{}, owner)
}
