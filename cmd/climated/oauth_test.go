package main

import (
	"context"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/climated/climated/cmd/climated/internal/token"
	"github.com/climated/climated/internal/testutil"
)

// TestOAuthSignInThroughServe: a hub with public_url lets go-sdk's own
// OAuth client register, sends the owner to the consent page, where the
// hub's token approves, and the client reads get_climate; without a
// token, /mcp answers 401 naming the resource metadata, as the Server
// Card does.
func TestOAuthSignInThroughServe(t *testing.T) {
	cfg := demoConfig(t)
	port := testutil.FreePort(t)
	cfg.Listen = "127.0.0.1:" + port
	cfg.PublicURL = "http://127.0.0.1:" + port
	startHub(t, cfg)
	resp, err := http.Post(cfg.PublicURL+"/mcp", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if want := `resource_metadata="` + cfg.PublicURL + `/.well-known/oauth-protected-resource/mcp"`; resp.StatusCode != 401 || !strings.Contains(resp.Header.Get("WWW-Authenticate"), want) {
		t.Errorf("/mcp without a token: %d, WWW-Authenticate %q; want 401 with %s", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), want)
	}
	// The Server Card says the same, without a token.
	if auth := serverCard(t, cfg.PublicURL).Meta["io.github.climated/auth"]; auth["kind"] != "oauth" || auth["resource_metadata"] != cfg.PublicURL+"/.well-known/oauth-protected-resource/mcp" {
		t.Errorf("the Server Card's auth: %v", auth)
	}
	owner, err := token.LoadOrCreate(cfg.TokenPath())
	if err != nil {
		t.Fatal(err)
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

var hiddenField = regexp.MustCompile(`<input type="hidden" name="([a-z_]+)" value="([^"]*)">`)

// ownerApproves opens the consent page as the owner's browser would,
// approves with the hub's token and reads the code from the redirect.
func ownerApproves(owner string) auth.AuthorizationCodeFetcher {
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := c.Get(args.URL)
		if err != nil {
			return nil, err
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		form := url.Values{"owner": {owner}, "action": {"approve"}}
		for _, m := range hiddenField.FindAllStringSubmatch(string(page), -1) {
			form.Set(m[1], html.UnescapeString(m[2]))
		}
		endpoint, _ := url.Parse(args.URL)
		endpoint.RawQuery = ""
		if resp, err = c.PostForm(endpoint.String(), form); err != nil {
			return nil, err
		}
		resp.Body.Close()
		loc, err := url.Parse(resp.Header.Get("Location"))
		if resp.StatusCode != http.StatusSeeOther || err != nil {
			return nil, fmt.Errorf("approval: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
		}
		q := loc.Query()
		return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
	}
}
