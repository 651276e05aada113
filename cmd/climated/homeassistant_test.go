package main

// Home Assistant's "Model Context Protocol" integration signing in to the
// hub, replayed request by request from its source in home-assistant/core:
//
//   - homeassistant/components/mcp/config_flow.py and registration.py at
//     00b00102104c57ec28e05371131a97d38c4be956: discovery from the 401,
//     the RFC 8414 fetches, the choice of scopes, the DCR body and what HA
//     accepts back, the authorize URL's extra parameters;
//   - homeassistant/components/mcp/const.py (blob 70672475515 of the
//     search index, the one with DCR_CLIENT_NAME): the client's name and
//     its token endpoint auth methods;
//   - homeassistant/components/mcp/auth.py at
//     048ce0eaa9fbd7e35325ff72e17a3ad25e53efe9: the WWW-Authenticate regexps;
//   - homeassistant/components/mcp/application_credentials.py at
//     1df604799c161311de3501053c770c87b48c9cfd: PKCE through
//     LocalOAuth2ImplementationWithPkce;
//   - homeassistant/components/mcp/__init__.py at
//     12e9414247f8af0a604ca15d262c2de8b2da5b90: OAuth2Session's
//     async_ensure_token_valid before each use of the token;
//   - homeassistant/helpers/config_entry_oauth2_flow.py at
//     005d61300a24be809f316d08884aab20d2236f9e: the authorize URL (a JWT
//     as state, a 128-character verifier), the token and refresh forms,
//     MY_AUTH_CALLBACK_PATH, CLOCK_OUT_OF_SYNC_MAX_SEC.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/oauth"
	"github.com/climated/climated/internal/testutil/chromium"
)

const (
	haRedirect      = "https://my.home-assistant.io/redirect/oauth" // MY_AUTH_CALLBACK_PATH, with the "my" integration loaded (the default)
	haClientName    = "Home Assistant"                              // DCR_CLIENT_NAME
	haClockSkew     = 20 * time.Second                              // CLOCK_OUT_OF_SYNC_MAX_SEC
	haOAuthDiscover = "/.well-known/oauth-authorization-server"
	haOIDCDiscover  = "/.well-known/openid-configuration"
)

// auth.py's RESOURCE_METADATA_REGEXP and SCOPES_REGEXP.
var (
	haResourceMetadata = regexp.MustCompile(`resource_metadata="([^"]+)"`)
	haScopes           = regexp.MustCompile(`scope="([^"]+)"`)
)

// haSession is what Home Assistant holds of one MCP server: its URL, what
// discovery found, the registered client and the token as the config
// entry stores it.
type haSession struct {
	t                       *testing.T
	mcpURL                  string
	now                     func() time.Time // Home Assistant's clock
	authorizeURL, tokenURL  string
	registrationURL         string
	authMethods             []string
	scopes                  []string
	clientID, verifier      string
	accessToken, refreshTok string
	expiresAt               time.Time
}

// TestHomeAssistantSignsIn replays Home Assistant's sign-in against a
// running hub: the 401, the resource metadata it names, the RFC 8414 and
// OpenID fetches HA makes side by side, DCR with HA's own body, the
// authorize URL HA builds (PKCE S256, a JWT as state, access_type,
// prompt and scope) approved by the owner in chromium at HA's redirect
// URI, the code exchanged with HA's form, get_climate; then both clocks
// pass the access token's lifetime, the hub refuses the old token, HA
// refreshes with its form and reads get_climate again. After the owner
// revokes it, HA's refresh is refused with invalid_client (a 4xx, on
// which HA asks the user to sign in again), and the integration added
// again registers and signs in.
func TestHomeAssistantSignsIn(t *testing.T) {
	bctx := chromium.Browser(t)
	var skew atomic.Int64 // how far both clocks have been moved on
	now := func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }
	base, owner, cfg := oauthHubEnv(t, serveEnv{oauth: func(o *oauth.Options) { o.Now = now }})
	ha := haSignIn(t, bctx, base, owner, now)
	expired := ha.accessToken
	skew.Store(int64(ha.expiresAt.Sub(time.Now()) + time.Second))
	if code := ha.mcpStatus(expired); code != http.StatusUnauthorized {
		t.Errorf("an expired access token: /mcp answered %d, want 401", code)
	}
	ha.ensureTokenValid()
	if ha.accessToken == expired {
		t.Fatal("the refresh returned the old access token")
	}
	ha.readClimate()

	revokeAll(t, cfg)
	form := url.Values{"grant_type": {"refresh_token"}, "client_id": {ha.clientID}, "refresh_token": {ha.refreshTok}}
	resp, err := http.PostForm(ha.tokenURL, form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("HA's refresh after a revoke: %s; want 401 invalid_client", resp.Status)
	}
	haSignIn(t, bctx, base, owner, now)
}

// haSignIn is Home Assistant's integration added for the hub at base:
// discovery, registration, the owner's approval, the code and get_climate.
func haSignIn(t *testing.T, bctx context.Context, base, owner string, now func() time.Time) *haSession {
	ha := &haSession{t: t, mcpURL: base + "/mcp", now: now}

	header := ha.firstContact()
	ha.discover(header)
	ha.register()
	state, authURL := ha.startAuth()
	sent, err := chromium.Approve(bctx, authURL, owner, haRedirect)
	if err != nil {
		t.Fatal(err)
	}
	ha.callback(sent, state)
	ha.readClimate()
	return ha
}

// firstContact is validate_input without a token: the MCP request fails
// with 401, and AuthenticateHeader.from_header reads the header.
func (ha *haSession) firstContact() string {
	t := ha.t
	req, _ := http.NewRequest(http.MethodPost, ha.mcpURL, strings.NewReader(
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcp","version":"0.1.0"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp := ha.do(req)
	resp.Body.Close()
	header := resp.Header.Get("WWW-Authenticate")
	if resp.StatusCode != http.StatusUnauthorized || !haResourceMetadata.MatchString(header) {
		t.Fatalf("first contact: %d, WWW-Authenticate %q; HA needs 401 with resource_metadata", resp.StatusCode, header)
	}
	return header
}

// discover is async_step_auth_discovery: the resource metadata the
// header names (its resource exactly the URL HA was given), then RFC 8414
// and OpenID discovery at the authorization server's root, side by side,
// the first success winning; then _select_scopes.
func (ha *haSession) discover(header string) {
	t := ha.t
	prmURL, _ := url.Parse(ha.mcpURL)
	prmURL, _ = prmURL.Parse(haResourceMetadata.FindStringSubmatch(header)[1])
	var prm struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
		ScopesSupported      []string `json:"scopes_supported"`
	}
	ha.getJSON(prmURL.String(), &prm)
	if prm.Resource != ha.mcpURL || len(prm.AuthorizationServers) == 0 {
		t.Fatalf("resource metadata %+v: HA ignores it unless resource is exactly %s and authorization_servers is a list", prm, ha.mcpURL)
	}
	as, _ := url.Parse(prm.AuthorizationServers[0])
	if as.Path != "" && as.Path != "/" {
		t.Fatalf("authorization server %s has a path: HA would try other well-known URLs than this replay does", as)
	}
	// HA fetches both at once and takes whichever succeeds first: an
	// OpenID answer that succeeded with something else could win.
	if code := ha.status(as.Scheme + "://" + as.Host + haOIDCDiscover); code >= 200 && code < 300 {
		t.Errorf("%s answered %d: HA may take it for the authorization server's metadata", haOIDCDiscover, code)
	}
	var meta struct {
		AuthorizationEndpoint string    `json:"authorization_endpoint"`
		TokenEndpoint         string    `json:"token_endpoint"`
		RegistrationEndpoint  string    `json:"registration_endpoint"`
		ScopesSupported       []string  `json:"scopes_supported"`
		AuthMethods           *[]string `json:"token_endpoint_auth_methods_supported"`
	}
	ha.getJSON(as.Scheme+"://"+as.Host+haOAuthDiscover, &meta)
	ha.authorizeURL, ha.tokenURL = resolve(as, meta.AuthorizationEndpoint), resolve(as, meta.TokenEndpoint)
	ha.registrationURL = resolve(as, meta.RegistrationEndpoint)
	if meta.AuthMethods != nil {
		ha.authMethods = *meta.AuthMethods
	}
	if ha.registrationURL == "" {
		t.Fatal("no registration_endpoint: HA would ask the user for application credentials")
	}
	switch m := haScopes.FindStringSubmatch(header); {
	case m != nil:
		ha.scopes = strings.Split(m[1], " ")
	case len(prm.ScopesSupported) > 0:
		ha.scopes = prm.ScopesSupported
	default:
		ha.scopes = meta.ScopesSupported
	}
}

// resolve is how HA completes an endpoint: a path beginning with / is
// put on the authorization server's URL; anything else is taken as it is.
func resolve(as *url.URL, endpoint string) string {
	if strings.HasPrefix(endpoint, "/") {
		return as.Scheme + "://" + as.Host + endpoint
	}
	return endpoint
}

// register is async_register_dynamic_client: HA's auth method choice,
// its body (OAuthClientMetadata's fields in the python SDK's order, None
// left out, then application_type), and the checks of
// _parse_registration_response.
func (ha *haSession) register() {
	t := ha.t
	method := ""
	for _, m := range []string{"none", "client_secret_post", "client_secret_basic"} { // public clients preferred
		if slices.Contains(ha.authMethods, m) {
			method = m
			break
		}
	}
	if method != "none" {
		t.Fatalf("token_endpoint_auth_methods_supported %q: HA would register as a confidential client (%q), which the hub has not", ha.authMethods, method)
	}
	scope := "" // scope=" ".join(scopes) if scopes else None, and None is left out
	if len(ha.scopes) > 0 {
		scope = fmt.Sprintf(`"scope":%q,`, strings.Join(ha.scopes, " "))
	}
	body := fmt.Sprintf(`{"redirect_uris":[%q],"token_endpoint_auth_method":"none","grant_types":["authorization_code","refresh_token"],"response_types":["code"],%s"client_name":%q,"application_type":"web"}`,
		haRedirect, scope, haClientName)
	req, _ := http.NewRequest(http.MethodPost, ha.registrationURL, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp := ha.do(req)
	defer resp.Body.Close()
	var got struct {
		ClientID        *string         `json:"client_id"`
		RedirectURIs    *[]string       `json:"redirect_uris"`
		Scope           *string         `json:"scope"`
		AuthMethod      *string         `json:"token_endpoint_auth_method"`
		SecretExpiresAt json.RawMessage `json:"client_secret_expires_at"`
	}
	if resp.StatusCode != 200 && resp.StatusCode != 201 || json.NewDecoder(resp.Body).Decode(&got) != nil {
		t.Fatalf("registration: %d; HA needs 200 or 201 with a JSON object", resp.StatusCode)
	}
	switch {
	case got.ClientID == nil || *got.ClientID == "":
		t.Fatal("registration: no client_id")
	case got.RedirectURIs != nil && !slices.Contains(*got.RedirectURIs, haRedirect):
		t.Fatalf("registration: redirect_uris %q lacks HA's", *got.RedirectURIs)
	case got.Scope != nil && !isSubset(ha.scopes, strings.Fields(*got.Scope)):
		t.Fatalf("registration: scope %q does not cover %q", *got.Scope, ha.scopes)
	case got.AuthMethod != nil && *got.AuthMethod != "none":
		t.Fatalf("registration: token_endpoint_auth_method %q", *got.AuthMethod)
	case len(got.SecretExpiresAt) > 0 && string(got.SecretExpiresAt) != "0" && string(got.SecretExpiresAt) != "null":
		t.Fatalf("registration: client_secret_expires_at %s: HA refuses a secret that expires", got.SecretExpiresAt)
	}
	ha.clientID = *got.ClientID
}

func isSubset(want, have []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}
