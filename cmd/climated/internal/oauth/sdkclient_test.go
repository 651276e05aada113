package oauth_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// withMCP serves, beside the authorization server, an MCP endpoint
// behind go-sdk's RequireBearerToken with Verify.
func withMCP(h *hub) {
	server := mcp.NewServer(&mcp.Implementation{Name: "climated-test"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "whoami"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: req.Extra.TokenInfo.UserID}}}, nil, nil
	})
	protect := auth.RequireBearerToken(h.srv.Verify, &auth.RequireBearerTokenOptions{ResourceMetadataURL: h.srv.ResourceMetadataURL()})
	mux := http.NewServeMux()
	mux.Handle("/", h.srv.Handler())
	mux.Handle("/mcp", protect(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)))
	h.http.Config.Handler = mux
}

// fetchCode is the owner in a browser: it opens the consent page the
// client sends it to, approves with the hub's token and reads the code
// from where the hub sends the browser back.
func fetchCode(t *testing.T, seen *[]string) auth.AuthorizationCodeFetcher {
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		b := newBrowser(t)
		resp, page := b.get(args.URL)
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("consent page: %d %s", resp.StatusCode, page)
		}
		form := formOf(page)
		form.Set("owner", ownerToken)
		form.Set("action", "approve")
		endpoint, _ := url.Parse(args.URL)
		endpoint.RawQuery = ""
		resp, _ = b.post(endpoint.String(), form)
		loc, err := url.Parse(resp.Header.Get("Location"))
		if resp.StatusCode != http.StatusSeeOther || err != nil {
			return nil, fmt.Errorf("approval answered %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
		}
		q := loc.Query()
		*seen = append(*seen, q.Get("code"), form.Get("csrf"))
		return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
	}
}

// TestGoSDKClientSignsIn: go-sdk's own OAuth client (not written here)
// finds the metadata from the 401, registers by DCR, sends the owner to
// the consent page, redeems the code with PKCE and the resource, and
// calls a tool with the token; no secret appears in the hub's log.
func TestGoSDKClientSignsIn(t *testing.T) {
	h := newHub(t, func(o *oauth.Options) { o.Owner = checkOwner })
	withMCP(h)
	var secrets []string
	handler, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "go-sdk test", RedirectURIs: []string{"http://127.0.0.1:5556/callback"}}},
		RedirectURL:              "http://127.0.0.1:5556/callback",
		AuthorizationCodeFetcher: fetchCode(t, &secrets),
		RequestRefreshToken:      true,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: h.base + "/mcp", OAuthHandler: handler}, nil)
	if err != nil {
		t.Fatalf("connect with OAuth: %v\nhub log:\n%s", err, h.logText())
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "whoami"})
	if err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}
	if id := res.Content[0].(*mcp.TextContent).Text; !strings.HasPrefix(id, "dcr_") {
		t.Errorf("the tool saw client %q, want the registered dcr_ client", id)
	}
	ts, err := handler.TokenSource(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := ts.Token()
	if err != nil {
		t.Fatal(err)
	}
	secrets = append(secrets, tok.AccessToken, tok.RefreshToken, ownerToken)
	secrets = append(secrets, reuseRefresh(t, h, tok.RefreshToken, res.Content[0].(*mcp.TextContent).Text)...)
	noSecretLogged(t, h, secrets)
}

// reuseRefresh refreshes with the client's refresh token, retries it (a
// lost answer), refreshes with the retry's token and presents the first
// one again: a reuse, so the hub logs a retry and a revocation. It
// returns the tokens the refreshes gave, to look for in the log.
func reuseRefresh(t *testing.T, h *hub, refresh, client string) []string {
	a1, r1 := h.mustRefresh(client, refresh)
	a2, r2 := h.mustRefresh(client, refresh)
	a3, r3 := h.mustRefresh(client, r2)
	if status, _ := h.refresh(client, refresh); status != http.StatusBadRequest {
		t.Fatalf("reused refresh: %d, want 400", status)
	}
	return []string{a1, r1, a2, r2, a3, r3}
}

// noSecretLogged: the log says what happened (a grant, a revocation)
// and holds no code or token, nor a part of one.
func noSecretLogged(t *testing.T, h *hub, secrets []string) {
	log := h.logText()
	for _, want := range []string{"oauth client registered", "oauth consent approved", "oauth grant", "oauth refresh token retried", "grant revoked"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
	for _, s := range secrets {
		for _, part := range strings.Split(s, ".") {
			if len(part) < 16 {
				t.Fatalf("secret part %q too short to look for", part)
			}
			if strings.Contains(log, part[:16]) {
				t.Errorf("the log holds a secret (%s…):\n%s", part[:6], log)
			}
		}
	}
}
