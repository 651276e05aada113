package oauth_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// TestClientsAndRevoke: the list shows each client with its grants and
// scopes; Revoke ends its tokens at once, and says so once in the log.
func TestClientsAndRevoke(t *testing.T) {
	h := newHub(t, nil)
	client, access, refresh := h.signIn()
	idle := h.register("https://idle.example/cb")
	list, err := h.srv.Clients(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != client || list[0].Grants != 1 || !slices.Equal(list[0].Scopes, []string{oauth.ScopeRead}) || list[0].LastUsed.IsZero() {
		t.Fatalf("clients: %+v", list)
	}
	if list[1].ID != idle || list[1].Grants != 0 || !list[1].LastUsed.IsZero() {
		t.Errorf("the idle client: %+v", list[1])
	}
	h.revoke(t, client, access, refresh)
	if n := strings.Count(h.logText(), "oauth client revoked"); n != 1 {
		t.Errorf("%d revocation lines, want 1:\n%s", n, h.logText())
	}
}

// revoke revokes client and checks that its tokens stopped working, that
// a second revocation finds nothing of it and that no pair is kept.
func (h *hub) revoke(t *testing.T, client, access, refresh string) {
	t.Helper()
	if err := h.srv.Revoke(context.Background(), client); err != nil {
		t.Fatalf("revoke %s: %v", client, err)
	}
	if _, err := h.srv.Verify(context.Background(), access, nil); !errors.Is(err, auth.ErrInvalidToken) {
		t.Errorf("a revoked client's access token: %v, want ErrInvalidToken", err)
	}
	// invalid_client, not invalid_grant: on it clients register again.
	status, m := h.token(url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "refresh_token": {refresh}})
	wantError(t, status, m, http.StatusUnauthorized, "invalid_client")
	if err := h.srv.Revoke(context.Background(), client); !errors.Is(err, oauth.ErrNoClient) {
		t.Errorf("revoking twice: %v, want ErrNoClient", err)
	}
	var n int
	if err := h.sql().QueryRow("SELECT count(*) FROM oauth_tokens WHERE family NOT IN (SELECT family FROM oauth_grants)").Scan(&n); err != nil || n != 0 {
		t.Errorf("token pairs kept of grants that ended: %d %v", n, err)
	}
}
