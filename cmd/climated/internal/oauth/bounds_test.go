package oauth_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// TestCodesBounded: at most MaxCodes codes wait to be redeemed; expired
// ones make room.
func TestCodesBounded(t *testing.T) {
	h := newHub(t, func(o *oauth.Options) { o.MaxCodes = 2 })
	const redirect = "https://app.example/cb"
	client := h.register(redirect)
	ar, err := h.srv.CheckAuthRequest(context.Background(), "", h.authQuery(client, redirect))
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := h.srv.IssueCode(context.Background(), ar); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := h.srv.IssueCode(context.Background(), ar); err == nil || !strings.Contains(err.Error(), "temporarily_unavailable") {
		t.Errorf("a third code with MaxCodes 2: %v, want temporarily_unavailable", err)
	}
	h.clock.add(oauth.DefaultCodeTTL)
	if _, err := h.srv.IssueCode(context.Background(), ar); err != nil {
		t.Errorf("once the codes expired: %v", err)
	}
}

// TestGrantsPerClientBounded: a client holds at most MaxGrants grants;
// a new one drops the oldest, whose tokens stop working.
func TestGrantsPerClientBounded(t *testing.T) {
	h := newHub(t, func(o *oauth.Options) { o.MaxGrants = 2 })
	const redirect = "https://app.example/cb"
	client := h.register(redirect)
	var access []string
	for range 3 {
		status, m := h.token(h.codeForm(client, redirect))
		if status != http.StatusOK {
			t.Fatalf("exchange: %d %v", status, m)
		}
		access = append(access, m["access_token"].(string))
		h.clock.add(time.Second)
	}
	if _, err := h.srv.Verify(context.Background(), access[0], nil); !errors.Is(err, auth.ErrInvalidToken) {
		t.Errorf("the oldest of 3 grants with MaxGrants 2: %v, want ErrInvalidToken", err)
	}
	for _, a := range access[1:] {
		if _, err := h.srv.Verify(context.Background(), a, nil); err != nil {
			t.Errorf("a newer grant: %v", err)
		}
	}
}

// TestExpiredGrantsDropped: a new grant drops the expired ones of every
// client, so a client that stopped coming back holds nothing.
func TestExpiredGrantsDropped(t *testing.T) {
	h := newHub(t, nil)
	h.signIn()
	h.clock.add(oauth.DefaultRefreshTTL)
	h.signIn()
	list, err := h.srv.Clients(context.Background())
	if err != nil || len(list) != 2 || list[0].Grants != 1 || list[1].Grants != 0 {
		t.Errorf("clients: %+v %v; want the newest with 1 grant, the expired one with none", list, err)
	}
}

// TestRefreshExpires: a refresh token is refused after RefreshTTL.
func TestRefreshExpires(t *testing.T) {
	h := newHub(t, nil)
	client, _, refresh := h.signIn()
	h.clock.add(oauth.DefaultRefreshTTL)
	status, m := h.token(url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "refresh_token": {refresh}})
	wantError(t, status, m, http.StatusBadRequest, "invalid_grant")
}

// TestOptionsBounds: lifetimes over their bounds and issuers a
// client could not trust are refused at start.
func TestOptionsBounds(t *testing.T) {
	path := newHub(t, nil).path // migrated: only the options can be refused
	ok := oauth.Options{Issuer: "https://hub.example", Resource: "https://hub.example/mcp"}
	if s, err := oauth.Open(context.Background(), path, ok); err != nil {
		t.Fatalf("good options: %v", err)
	} else {
		s.Close()
	}
	for name, change := range map[string]func(*oauth.Options){
		"refresh 91 days":      func(o *oauth.Options) { o.RefreshTTL = 91 * 24 * time.Hour },
		"access 2 h":           func(o *oauth.Options) { o.AccessTTL = 2 * time.Hour },
		"code 2 min":           func(o *oauth.Options) { o.CodeTTL = 2 * time.Minute },
		"reuse interval 6 min": func(o *oauth.Options) { o.ReuseInterval = 6 * time.Minute },
		"http issuer on LAN":   func(o *oauth.Options) { o.Issuer = "http://192.168.1.2:8080" },
		"issuer with slash":    func(o *oauth.Options) { o.Issuer = "https://hub.example/" },
		"resource with query":  func(o *oauth.Options) { o.Resource = "https://hub.example/mcp?x=1" },
		"no resource":          func(o *oauth.Options) { o.Resource = "" },
		"relative issuer":      func(o *oauth.Options) { o.Issuer = "/hub" },
	} {
		o := ok
		change(&o)
		if s, err := oauth.Open(context.Background(), path, o); err == nil {
			s.Close()
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestOpenWithoutSchema: the tables come from history.Open's migration.
func TestOpenWithoutSchema(t *testing.T) {
	_, err := oauth.Open(context.Background(), t.TempDir()+"/empty.db", oauth.Options{Issuer: "https://hub.example", Resource: "https://hub.example/mcp"})
	if !errors.Is(err, oauth.ErrNoSchema) {
		t.Errorf("got %v, want ErrNoSchema", err)
	}
}
