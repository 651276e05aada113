package dash_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/dash"
)

// TestRevokeRefused: the connected apps' endpoints refuse a caller
// without the owner's token or session, a page of another site, a POST
// naming no origin and a body that is not JSON; the app stays. The owner,
// from the hub's own origin, revokes it: logged once, at INFO.
func TestRevokeRefused(t *testing.T) {
	h := newOAuthHub(t, func(o *dash.Options) { o.IsLoopback = remote })
	client := h.register("Home Assistant", "https://ha.example/auth/callback")
	body := `{"client_id":"` + client + `"}`
	owner, json := "Bearer "+h.token, "application/json"
	for _, c := range []struct {
		name         string
		auth, origin string
		ctype        string
		want         int
	}{
		{"no token", "", h.base, json, http.StatusUnauthorized},
		{"a wrong token", "Bearer guess", h.base, json, http.StatusUnauthorized},
		{"another site's page", owner, "https://evil.example", json, http.StatusForbidden},
		{"no Origin", owner, "", json, http.StatusForbidden},
		{"a form", owner, h.base, "application/x-www-form-urlencoded", http.StatusUnsupportedMediaType},
	} {
		hdr := map[string]string{"Authorization": c.auth, "Origin": c.origin, "Content-Type": c.ctype}
		if res, text := do(t, "POST", h.base+dash.RevokePath, hdr, body); res.StatusCode != c.want {
			t.Errorf("%s: %d %q, want %d", c.name, res.StatusCode, text, c.want)
		}
	}
	if res, _ := do(t, "GET", h.base+dash.AppsPath, nil, ""); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("listing the apps without the token: %d, want 401", res.StatusCode)
	}
	if list, err := h.as.Clients(context.Background()); err != nil || len(list) != 1 {
		t.Fatalf("after the refusals the server lists %+v (%v), want the app", list, err)
	}
	hdr := map[string]string{"Authorization": owner, "Origin": h.base, "Content-Type": json}
	if res, text := do(t, "POST", h.base+dash.RevokePath, hdr, `{"client_id":"dcr_nobody"}`); res.StatusCode != http.StatusNotFound {
		t.Errorf("revoking an unknown app: %d %q, want 404", res.StatusCode, text)
	}
	if res, text := do(t, "POST", h.base+dash.RevokePath, hdr, body); res.StatusCode != http.StatusNoContent {
		t.Fatalf("the owner revoking: %d %q, want 204", res.StatusCode, text)
	}
	if res, text := do(t, "GET", h.base+dash.AppsPath, map[string]string{"Authorization": owner}, ""); res.StatusCode != 200 || text != "[]" {
		t.Errorf("the apps after revoking: %d %q, want 200 []", res.StatusCode, text)
	}
	if n := strings.Count(h.log.String(), "revoked"); n != 1 || !strings.Contains(h.log.String(), "level=INFO msg=\"oauth client revoked\" client_id="+client) {
		t.Errorf("the revocation is logged %d times, want once at INFO:\n%s", n, h.log.String())
	}
}

// TestAppsOffWithoutOAuth: without OAuth the dashboard serves no apps'
// endpoint and its state does not ask the page for the section.
func TestAppsOffWithoutOAuth(t *testing.T) {
	d := newDash(t, dash.StoreSource{Store: emptyStore(t)}, nil)
	base := serve(t, "127.0.0.1", d)
	for _, p := range d.Patterns() {
		if strings.Contains(p, "/api/") {
			t.Errorf("without OAuth the dashboard asks to be mounted at %s", p)
		}
	}
	if res, _ := do(t, "GET", base+dash.AppsPath, nil, ""); res.StatusCode != http.StatusNotFound {
		t.Errorf("%s without OAuth: %d, want 404", dash.AppsPath, res.StatusCode)
	}
	if _, state := do(t, "GET", base+"/dash/state", nil, ""); strings.Contains(state, `"apps"`) {
		t.Errorf("the state of a hub without OAuth names apps: %.200s", state)
	}
}
