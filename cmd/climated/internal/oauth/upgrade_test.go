package oauth_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/oauth"
	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/testutil"
)

// upgrade opens the history at path, then its OAuth tables: each brings
// its part up to date.
func upgrade(t *testing.T, path string) {
	t.Helper()
	st, err := history.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	st.Close(context.Background())
	reg, err := oauth.OpenRegistry(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	reg.Close()
}

func exec(t *testing.T, db *sql.DB, queries ...string) {
	t.Helper()
	for _, q := range queries {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestUpgradeEndsOrphanGrants: a history an earlier version left with
// grants of clients no longer listed loses them when it is migrated; the
// grants of listed clients stay.
func TestUpgradeEndsOrphanGrants(t *testing.T) {
	path, db := testutil.LegacyHistory(t, "sqlite", 9)
	exec(t, db,
		"INSERT INTO oauth_clients VALUES ('dcr_kept', 'Kept', '[]', 1, 1)",
		"INSERT INTO oauth_grants VALUES ('f1', 'dcr_kept', 'r', 's', 1, 1, x'01', 2, x'02', 2), ('f2', 'dcr_gone', 'r', 's', 1, 1, x'03', 2, x'04', 2)",
		"INSERT INTO oauth_codes VALUES (x'05', 'dcr_gone', 'u', 'c', 'r', 's', 2)")
	upgrade(t, path)
	var grants, pairs, codes string
	db.QueryRow("SELECT group_concat(family) FROM oauth_grants").Scan(&grants)
	db.QueryRow("SELECT group_concat(family) FROM oauth_tokens").Scan(&pairs)
	db.QueryRow("SELECT count(*) FROM oauth_codes").Scan(&codes)
	if grants != "f1" || pairs != "f1" || codes != "0" {
		t.Errorf("after the migration: grants %q, pairs of %q, codes %s; want f1 (its client listed) and none", grants, pairs, codes)
	}
}

// A grant as version 10 kept it: one refresh and one access token in its
// row.
const (
	oldFamily  = "fam0000000000000000001"
	oldRefresh = oldFamily + ".refresh-secret-of-a-grant-before-011"
	oldAccess  = "access-token-of-a-grant-before-011"
)

// upgradedGrant is a hub on a history of version 10 holding a grant of
// client dcr_old, upgraded as it opens.
func upgradedGrant(t *testing.T) *hub {
	t.Helper()
	path, db := testutil.LegacyHistory(t, "sqlite", 10)
	now := time.Now().Unix()
	sum := func(s string) string { b := sha256.Sum256([]byte(s)); return fmt.Sprintf("x'%x'", b) }
	_, secret, _ := strings.Cut(oldRefresh, ".")
	exec(t, db,
		fmt.Sprintf("INSERT INTO oauth_clients VALUES ('dcr_old', 'Old', '[]', %d, %d)", now-60, now-60),
		fmt.Sprintf("INSERT INTO oauth_grants VALUES ('%s', 'dcr_old', 'https://hub.example/mcp', 'climate:read', %d, %d, %s, %d, %s, %d)",
			oldFamily, now-60, now-30, sum(secret), now+3600, sum(oldAccess), now+1800))
	return newHubOn(t, path, func(o *oauth.Options) { o.Issuer, o.Resource = "https://hub.example", "https://hub.example/mcp" })
}

// TestUpgradeKeepsGrants: a grant made before step 003_tokens becomes a
// grant with that one pair: its access token works, its refresh token
// refreshes (and may be retried), a revocation ends it with every pair;
// a token it rotated out before the upgrade is still reuse.
func TestUpgradeKeepsGrants(t *testing.T) {
	h := upgradedGrant(t)
	h.live(t, true, "the access token of a grant made before the upgrade", oldAccess)
	if n := h.pairs(oldRefresh); n != 1 {
		t.Fatalf("the upgraded grant holds %d pairs, want 1", n)
	}
	a1, r1 := h.mustRefresh("dcr_old", oldRefresh)
	a2, _ := h.mustRefresh("dcr_old", oldRefresh)
	if !strings.HasPrefix(r1, oldFamily+".") {
		t.Errorf("the refresh token %q is not of the upgraded family", r1)
	}
	h.revoke(t, "dcr_old", a1, r1)
	h.live(t, false, "after the revocation", oldAccess, a2)

	h = upgradedGrant(t)
	status, m := h.refresh("dcr_old", oldFamily+".an-older-secret-the-grant-rotated-out")
	wantError(t, status, m, http.StatusBadRequest, "invalid_grant")
	h.live(t, false, "after a reuse of a token rotated out before the upgrade", oldAccess)
}
