package oauth_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// ids lists the registered clients' ids.
func (h *hub) ids() []string {
	h.t.Helper()
	list, err := h.srv.Clients(context.Background())
	if err != nil {
		h.t.Fatal(err)
	}
	var out []string
	for _, c := range list {
		out = append(out, c.ID)
	}
	return out
}

// TestUnapprovedRegistrationsExpire: a registration never approved is
// gone minutes later, at the next registration; one that signed in stays.
func TestUnapprovedRegistrationsExpire(t *testing.T) {
	h := newHub(t, func(o *oauth.Options) { o.RegisterRate = rate.Inf })
	used, _, _ := h.signIn()
	idle := h.register("https://idle.example/cb")
	h.clock.add(11 * time.Minute)
	late := h.register("https://late.example/cb")
	got := h.ids()
	if slices.Contains(got, idle) || !slices.Contains(got, used) || !slices.Contains(got, late) {
		t.Errorf("clients %v 11 minutes on; want %s (signed in) and %s (new), not %s (never approved)", got, used, late, idle)
	}
}

// TestRegistrationSquatting: registrations that fill the table do not
// lock out the next one: it evicts the oldest registration never
// approved, never a client that signed in or holds a code.
func TestRegistrationSquatting(t *testing.T) {
	h := newHub(t, func(o *oauth.Options) { o.RegisterRate = rate.Inf })
	used, access, _ := h.signIn()
	const redirect = "https://app.example/cb"
	pending := h.register(redirect)
	form := h.codeForm(pending, redirect)
	for i := range oauth.DefaultMaxClients + 10 {
		status, body := h.post(oauth.PathRegister, "application/json", regBody)
		if status != http.StatusCreated {
			t.Fatalf("registration %d of a full table: %d %s", i+1, status, body)
		}
	}
	got := h.ids()
	if len(got) != oauth.DefaultMaxClients || !slices.Contains(got, used) || !slices.Contains(got, pending) {
		t.Errorf("%d clients after the flood; want %d with %s and %s among them", len(got), oauth.DefaultMaxClients, used, pending)
	}
	if _, err := h.srv.Verify(context.Background(), access, nil); err != nil {
		t.Errorf("the signed-in client's token after the flood: %v", err)
	}
	if status, m := h.token(form); status != http.StatusOK {
		t.Errorf("the approved code after the flood: %d %v", status, m)
	}
	if n := strings.Count(h.logText(), "oauth registration evicted"); n != 12 {
		t.Errorf("%d evictions logged, want 12 (60 squatters, 48 places)", n)
	}
}

// TestRegistrationEvictsOldest: a full table evicts the oldest
// registration never approved, one per new registration.
func TestRegistrationEvictsOldest(t *testing.T) {
	h := newHub(t, func(o *oauth.Options) { o.MaxClients = 3; o.RegisterRate = rate.Inf })
	var ids []string
	for range 4 {
		ids = append(ids, h.register("https://app.example/cb"))
		h.clock.add(time.Second)
	}
	if got := h.ids(); slices.Contains(got, ids[0]) || len(got) != 3 {
		t.Errorf("clients %v; want the 3 newest of %v", got, ids)
	}
}

// TestRegistrationFullOfApproved: only a table full of approved clients
// refuses a registration, saying how to make room; approved clients do
// not expire.
func TestRegistrationFullOfApproved(t *testing.T) {
	h := newHub(t, func(o *oauth.Options) { o.MaxClients = 2; o.RegisterRate = rate.Inf })
	h.signIn()
	h.signIn()
	h.clock.add(48 * time.Hour)
	status, body := h.post(oauth.PathRegister, "application/json", regBody)
	if status != http.StatusForbidden || !strings.Contains(body, "access_denied") || !strings.Contains(body, "climated clients revoke") {
		t.Errorf("registration with 2 approved clients of 2: %d %s, want 403 access_denied naming climated clients revoke", status, body)
	}
}

// TestCleanUpKeepsClientWithPendingCode: a registration old enough to be
// cleaned up, approved just now, is kept by the next registration's
// clean-up: its code makes a grant of a listed client.
func TestCleanUpKeepsClientWithPendingCode(t *testing.T) {
	h := newHub(t, nil)
	const redirect = "https://app.example/cb"
	client := h.register(redirect)
	h.clock.add(25 * time.Hour) // older than any clean-up age
	form := h.codeForm(client, redirect)
	h.register("https://other.example/cb") // runs the clean-up
	status, m := h.token(form)
	if status != http.StatusOK {
		t.Fatalf("redeeming the approved client's code: %d %v", status, m)
	}
	if got := h.ids(); !slices.Contains(got, client) {
		t.Errorf("the approved client %s is not listed: %v", client, got)
	}
	if n := h.orphanGrants(); n != 0 {
		t.Errorf("%d grants of a client that is not listed", n)
	}
}

// TestCodeForRemovedClient: a registration removed while the owner read
// the consent page gets no code: the page says to start again.
func TestCodeForRemovedClient(t *testing.T) {
	h := newHub(t, func(o *oauth.Options) { o.RegisterRate = rate.Inf })
	const redirect = "https://app.example/cb"
	client := h.register(redirect)
	ar, err := h.srv.CheckAuthRequest(context.Background(), "", h.authQuery(client, redirect))
	if err != nil {
		t.Fatal(err)
	}
	h.clock.add(25 * time.Hour)
	h.register("https://other.example/cb") // removes the unapproved one
	if code, err := h.srv.IssueCode(context.Background(), ar); err == nil || !strings.Contains(err.Error(), "start the sign-in again") {
		t.Errorf("a code for a removed registration: %q, %v; want an error saying to start again", code, err)
	}
}
