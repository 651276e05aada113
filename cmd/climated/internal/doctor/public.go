package doctor

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
)

// The documents an assistant's servers read first, at public_url.
const (
	resourceMetaPath = "/.well-known/oauth-protected-resource/mcp"
	issuerMetaPath   = "/.well-known/oauth-authorization-server"
)

// checkPublicURL asks public_url, from this machine and through whatever
// tunnel is in front of the hub, what Claude's, ChatGPT's or Home
// Assistant's servers ask first: the MCP endpoint's metadata, the
// issuer's, and /mcp without a token. Each must be the hub's own answer
// for this configuration: the same issuer and resource, and a 401 that
// names the metadata at public_url (a tunnel that rewrites the Host or
// the path breaks exactly that).
func checkPublicURL(ctx context.Context, cfg config.Config, env Env) []Finding {
	if cfg.PublicURL == "" {
		return []Finding{{Check: "public", Status: StatusSkip,
			Detail: "public_url is not set: assistants that sign in with OAuth (Claude on the web and phones, ChatGPT, Home Assistant) cannot reach the hub",
			Fix:    "put a tunnel in front of the hub and set public_url (docs/remote.md)"}}
	}
	c := env.HTTP
	if c == nil {
		c = &http.Client{Timeout: 10 * time.Second}
	}
	// A redirect is an answer of something else in front of the hub (a
	// login page of the tunnel's, http to https): report it, do not follow.
	nc := *c
	nc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	base := cfg.PublicURL
	if f, ok := publicProblem(ctx, &nc, base); !ok {
		return []Finding{f}
	}
	return []Finding{{Check: "public", Status: StatusOK, Detail: base + " answers with this hub's OAuth metadata, and " + base + "/mcp asks for sign-in"}}
}

// publicProblem is the first thing wrong at base, if any.
func publicProblem(ctx context.Context, c *http.Client, base string) (Finding, bool) {
	fail := func(detail, fix string) (Finding, bool) {
		return Finding{Check: "public", Status: StatusFail, Detail: detail, Fix: fix}, false
	}
	var prm struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
	}
	if detail, fix := getJSON(ctx, c, base+resourceMetaPath, &prm); detail != "" {
		return fail(detail, fix)
	}
	if prm.Resource != base+"/mcp" || !slices.Contains(prm.AuthorizationServers, base) {
		return fail(fmt.Sprintf("%s names resource %q and authorization servers %q, not this configuration's %s/mcp and %s", base+resourceMetaPath, prm.Resource, prm.AuthorizationServers, base, base),
			"the hub behind the tunnel runs with another public_url (or another hub answers there): restart it after changing public_url (sudo systemctl restart climated)")
	}
	var as struct {
		Issuer string `json:"issuer"`
	}
	if detail, fix := getJSON(ctx, c, base+issuerMetaPath, &as); detail != "" {
		return fail(detail, fix)
	}
	if as.Issuer != base {
		return fail(fmt.Sprintf("%s names issuer %q, not %s", base+issuerMetaPath, as.Issuer, base), "restart the hub after changing public_url")
	}
	return challenge(ctx, c, base, fail)
}

// challenge: /mcp without a token must answer 401 naming the metadata.
func challenge(ctx context.Context, c *http.Client, base string, fail func(string, string) (Finding, bool)) (Finding, bool) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := c.Do(req)
	if err != nil {
		return fail(reachProblem(base+"/mcp", err))
	}
	resp.Body.Close()
	want := `resource_metadata="` + base + resourceMetaPath + `"`
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(resp.Header.Get("WWW-Authenticate"), want) {
		return fail(fmt.Sprintf("%s/mcp without a token answered %d with WWW-Authenticate %q, want 401 with %s", base, resp.StatusCode, resp.Header.Get("WWW-Authenticate"), want),
			"the tunnel must pass /mcp to the hub unchanged, with its Authorization header (docs/remote.md)")
	}
	return Finding{}, true
}

// getJSON reads url's JSON document into v; detail says what went wrong.
func getJSON(ctx context.Context, c *http.Client, url string, v any) (detail, fix string) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := c.Do(req)
	if err != nil {
		return reachProblem(url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	switch {
	case err != nil:
		return fmt.Sprintf("%s: reading the answer: %v", url, err), "check the tunnel"
	case resp.StatusCode == http.StatusBadGateway || resp.StatusCode == http.StatusServiceUnavailable || resp.StatusCode == http.StatusGatewayTimeout:
		return fmt.Sprintf("%s answered %d: the tunnel runs but does not reach the hub", url, resp.StatusCode),
			"point the tunnel at the hub's listen address (tailscale funnel 8473, or cloudflared's service: http://localhost:8473) and check the hub runs (systemctl status climated)"
	case resp.StatusCode == http.StatusNotFound:
		return fmt.Sprintf("%s answered 404: what answers there is not a hub with public_url set", url),
			"restart the hub after setting public_url (sudo systemctl restart climated), and check the tunnel passes every path to it"
	case resp.StatusCode != http.StatusOK:
		return fmt.Sprintf("%s answered %d %s, want 200 and the hub's JSON", url, resp.StatusCode, resp.Header.Get("Location")), "check what the tunnel puts in front of the hub (a login, a redirect)"
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Sprintf("%s: not the hub's JSON: %v", url, err), "check that the tunnel reaches the hub, not another server"
	}
	return "", ""
}

// reachProblem says why url could not be asked at all.
func reachProblem(url string, err error) (detail, fix string) {
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	switch {
	case errors.As(err, &dnsErr):
		return fmt.Sprintf("%s: the name does not resolve: %v", url, dnsErr), "check the name in public_url and that the tunnel is up (tailscale funnel status, cloudflared tunnel info)"
	case errors.As(err, &certErr), errors.As(err, &unknownCA), errors.As(err, &hostErr):
		return fmt.Sprintf("%s: its certificate is not valid for that name: %v", url, err), "assistants refuse it too: use the tunnel's own https name in public_url"
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return fmt.Sprintf("%s: no answer in time: %v", url, err), "check the tunnel is running and the hub answers on its listen address"
	}
	return fmt.Sprintf("%s: %v", url, err), "check the tunnel is running (docs/remote.md)"
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
