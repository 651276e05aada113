package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/doctor"
	"github.com/climated/climated/cmd/climated/internal/token"
	"github.com/climated/climated/internal/testutil"
)

// tunnelHub starts a demo hub on loopback with public_url at a tunnel in
// front of it, and allowed_hosts set to a LAN name only, so the public
// name must be let in by public_url itself.
func tunnelHub(t *testing.T) (config.Config, *tunnel) {
	t.Helper()
	cfg := demoConfig(t)
	cfg.Listen = "127.0.0.1:" + testutil.FreePort(t)
	tun := newTunnel(t, cfg.Listen)
	cfg.PublicURL = tun.URL
	cfg.AllowedHosts = []string{"climated.lan"}
	startHub(t, cfg)
	return cfg, tun
}

// TestOAuthBehindTunnel: go-sdk's OAuth client, outside, reaches the hub
// only through the tunnel: it finds the metadata, registers, the owner
// approves, and get_climate answers, all at the public https URL.
func TestOAuthBehindTunnel(t *testing.T) {
	cfg, tun := tunnelHub(t)
	owner, err := token.LoadOrCreate(cfg.TokenPath())
	if err != nil {
		t.Fatal(err)
	}
	handler, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "remote assistant", RedirectURIs: []string{"https://assistant.example/callback"}}},
		RedirectURL:              "https://assistant.example/callback",
		AuthorizationCodeFetcher: approveOver(tun.client, owner),
		Client:                   tun.client,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "remote"}, nil).Connect(ctx,
		&sdk.StreamableClientTransport{Endpoint: tun.URL + "/mcp", OAuthHandler: handler, HTTPClient: tun.client}, nil)
	if err != nil {
		t.Fatalf("connect through the tunnel: %v", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_climate"})
	if err != nil || res.IsError || !strings.Contains(fmt.Sprint(res.StructuredContent), "Indoor") {
		t.Fatalf("get_climate through the tunnel: %v %+v", err, res)
	}
}

// approveOver is the owner approving on the consent page, reached with c.
func approveOver(c *http.Client, owner string) auth.AuthorizationCodeFetcher {
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		jar, _ := cookiejar.New(nil)
		b := *c
		b.Jar, b.CheckRedirect = jar, func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		resp, err := b.Get(args.URL)
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
		if resp, err = b.PostForm(endpoint.String(), form); err != nil {
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

// TestDoctorPublicURL: doctor asks public_url what an assistant's servers
// ask first. Through a working tunnel it passes; each way a tunnel goes
// wrong fails with what to do.
func TestDoctorPublicURL(t *testing.T) {
	cfg, tun := tunnelHub(t)
	if f := publicFinding(t, cfg, tun.client); f.Status != doctor.StatusOK {
		t.Fatalf("through a working tunnel: %+v", f)
	}
	cases := []struct {
		name   string
		change func(cfg *config.Config) *http.Client
		want   []string
	}{
		{"tunnel up, hub not reached", func(cfg *config.Config) *http.Client {
			down := newTunnel(t, "127.0.0.1:"+testutil.FreePort(t))
			cfg.PublicURL = down.URL
			return down.client
		}, []string{"answered 502", "does not reach the hub"}},
		{"tunnel down", func(cfg *config.Config) *http.Client {
			down := newTunnel(t, cfg.Listen)
			cfg.PublicURL = down.URL
			down.srv.Close()
			return down.client
		}, []string{"connection refused", "check the tunnel is running"}},
		{"hub runs another public_url", func(cfg *config.Config) *http.Client {
			cfg.PublicURL = strings.Replace(tun.URL, "hub.", "old.", 1)
			return tun.client
		}, []string{"not this configuration's", "restart"}},
		{"certificate for another name", func(cfg *config.Config) *http.Client {
			cfg.PublicURL = strings.Replace(tun.URL, "hub.example.com", "hub.example.net", 1)
			return tun.client
		}, []string{"certificate", "tunnel's own https name"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := cfg
			f := publicFinding(t, cfg, c.change(&cfg))
			if f.Status != doctor.StatusFail {
				t.Fatalf("%+v, want a failed check", f)
			}
			for _, w := range c.want {
				if !strings.Contains(f.Detail+" / "+f.Fix, w) {
					t.Errorf("the finding does not say %q: %s / %s", w, f.Detail, f.Fix)
				}
			}
		})
	}
	cfg.PublicURL = ""
	if f := publicFinding(t, cfg, tun.client); f.Status != doctor.StatusSkip {
		t.Errorf("without public_url: %+v, want skip", f)
	}
}

// publicFinding runs the doctor on cfg and returns its public check.
func publicFinding(t *testing.T, cfg config.Config, c *http.Client) doctor.Finding {
	t.Helper()
	var out bytes.Buffer
	doctor.Run(t.Context(), cfg, doctor.Env{HTTP: c, Run: func(context.Context, string, ...string) (string, error) { return "active", nil }}, true, &out)
	var got struct{ Findings []doctor.Finding }
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("doctor --json: %v\n%s", err, out.String())
	}
	for _, f := range got.Findings {
		if f.Check == "public" {
			return f
		}
	}
	t.Fatalf("no public check:\n%s", out.String())
	return doctor.Finding{}
}

// TestTunnelAsksForLogin: a tunnel on the hub's own machine passes every
// request on from 127.0.0.1, with the public Host (Tailscale, cloudflared)
// or with the hub's own loopback address as the Host (nginx's default):
// either way the dashboard, the JSON API and the metrics ask the world
// for the token. Without public_url, a loopback Host from loopback is a
// local user, and the dashboard opens without a login, as before.
func TestTunnelAsksForLogin(t *testing.T) {
	cfg, tun := tunnelHub(t)
	askedForToken(t, "the tunnel", tun)
	askedForToken(t, "a Host-rewriting proxy", newRewritingProxy(t, cfg.Listen))
	resp, err := http.Get("http://" + startHub(t, demoConfig(t)).Addr.String() + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("a hub without public_url, on loopback: the dashboard answered %d, want 200 without a login", resp.StatusCode)
	}
}

func askedForToken(t *testing.T, through string, tun *tunnel) {
	t.Helper()
	for _, p := range []string{"/", "/api/climate", "/metrics", "/dash/events"} {
		resp, err := tun.client.Get(tun.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusUnauthorized { // a live stream's body never ends: do not read it
			resp.Body.Close()
			t.Errorf("GET %s through %s without a token: %d, want 401", p, through, resp.StatusCode)
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(body), "Indoor") {
			t.Errorf("GET %s through %s without a token: the climate in the 401:\n%.300s", p, through, body)
		}
	}
}
