package oauth_test

import (
	"context"
	"database/sql"
	"net/http"
	"sync"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/climated/climated/cmd/climated/internal/oauth"
	"github.com/climated/climated/history"
)

// sql opens the hub's file beside the server, as another process would.
func (h *hub) sql() *sql.DB {
	h.t.Helper()
	db, err := history.OpenSQLite("file:" + h.path + "?_busy_timeout=5000")
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { db.Close() })
	return db
}

// orphanGrants counts the grants whose client is not in the client
// table: grants no list shows and no revocation reaches.
func (h *hub) orphanGrants() int {
	h.t.Helper()
	var n int
	if err := h.sql().QueryRow("SELECT count(*) FROM oauth_grants WHERE client_id NOT IN (SELECT id FROM oauth_clients)").Scan(&n); err != nil {
		h.t.Fatal(err)
	}
	return n
}

// TestRevokeRacingRedemption: a revocation racing a code's redemption
// leaves no grant behind, however they interleave: the grant is made in
// the transaction that finds the client listed.
func TestRevokeRacingRedemption(t *testing.T) {
	h := newHub(t, func(o *oauth.Options) { o.RegisterRate = rate.Inf; o.MaxClients = 1000; o.MaxCodes = 1000 })
	const redirect = "https://app.example/cb"
	const rounds, pairs = 25, 8
	for round := range rounds {
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range pairs {
			client := h.register(redirect)
			form := h.codeForm(client, redirect)
			wg.Go(func() {
				<-start
				if resp, err := http.PostForm(h.base+oauth.PathToken, form); err == nil {
					resp.Body.Close()
				}
			})
			wg.Go(func() {
				<-start
				// Swept across a redemption's time, so that some revocations
				// land inside it, whatever the machine's speed.
				time.Sleep(time.Duration(round*pairs+i) * 20 * time.Microsecond)
				if err := h.srv.Revoke(context.Background(), client); err != nil {
					t.Errorf("revoke: %v", err)
				}
			})
		}
		close(start)
		wg.Wait()
	}
	if n := h.orphanGrants(); n != 0 {
		t.Errorf("after %d races of revoke and redemption, %d grants of clients not listed", rounds*pairs, n)
	}
}

// TestRevokeWithoutRegistration: a client id whose registration row is
// gone (a database an earlier version left) is still revoked: its grants
// end and its tokens stop working.
func TestRevokeWithoutRegistration(t *testing.T) {
	h := newHub(t, nil)
	client, access, refresh := h.signIn()
	if _, err := h.sql().Exec("DELETE FROM oauth_clients WHERE id = ?", client); err != nil {
		t.Fatal(err)
	}
	h.revoke(t, client, access, refresh)
	if n := h.orphanGrants(); n != 0 {
		t.Errorf("%d grants left of the revoked id", n)
	}
}
