package main

import (
	"context"
	"net/http"

	"github.com/climated/climated/cmd/climated/internal/dash"
	"github.com/climated/climated/cmd/climated/internal/front"
	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// openOAuth opens the authorization server when public_url is set (nil
// otherwise), on the history's file, with owner as its owner check (the
// dashboard's) and the dashboard's stylesheet, as a part of the hub that
// closes after the HTTP server.
func openOAuth(d hubDeps, owner func(r *http.Request, given string) error) (*oauth.Server, error) {
	if d.cfg.PublicURL == "" {
		return nil, nil
	}
	opts := oauth.Options{
		Issuer: d.cfg.PublicURL, Resource: d.cfg.PublicURL + "/mcp", Resources: []string{d.cfg.PublicURL + "/sse"},
		Owner: owner, Stylesheet: dash.StylesheetPath, Logger: d.log.With("component", "oauth"),
	}
	if d.oauthSeam != nil {
		d.oauthSeam(&opts)
	}
	as, err := oauth.Open(context.Background(), d.hub.Path(), opts)
	if err != nil {
		return nil, err
	}
	d.hub.Start("oauth", func(ctx context.Context) error {
		<-ctx.Done()
		return as.Close()
	})
	d.log.Info("assistants may sign in with OAuth", "issuer", d.cfg.PublicURL, "mcp", d.cfg.PublicURL+"/mcp")
	return as, nil
}

// mountOAuth serves the authorization server's endpoints beside the
// front's routes. They take no bearer token: they are how a client gets
// one; the consent page checks the owner itself.
func mountOAuth(f *front.Front, as *oauth.Server) {
	h := as.Handler()
	for _, p := range as.MountPaths() {
		f.Mount(p, h)
	}
}
