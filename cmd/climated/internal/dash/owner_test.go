package dash_test

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/dash"
)

// TestCheckOwnerLimited: the consent page's owner check counts wrong
// tokens with the login's: after MaxWrongLogins from one address a wrong
// one waits, a minute later it is merely wrong; the right token passes
// every time.
func TestCheckOwnerLimited(t *testing.T) {
	store, _ := demoStore(t, time.Hour)
	now := time.Unix(1_800_000_000, 0)
	h := newDash(t, dash.StoreSource{Store: store}, &dash.Options{Token: testToken, IsLoopback: remote, Now: func() time.Time { return now }})
	r := httptest.NewRequest("POST", "/authorize", nil)
	r.RemoteAddr = "192.0.2.7:5555"
	for i := 0; i < dash.MaxWrongLogins; i++ {
		if err := h.CheckOwner(r, "guess"); !errors.Is(err, dash.ErrNotOwner) {
			t.Fatalf("wrong token %d: %v, want ErrNotOwner", i+1, err)
		}
	}
	if err := h.CheckOwner(r, "guess"); err == nil || errors.Is(err, dash.ErrNotOwner) || !strings.Contains(err.Error(), "try again") {
		t.Errorf("a wrong token after %d wrong ones: %v, want a wait", dash.MaxWrongLogins, err)
	}
	if err := h.CheckOwner(r, testToken); err != nil {
		t.Errorf("the right token after %d wrong ones: %v, want it to pass", dash.MaxWrongLogins, err)
	}
	now = now.Add(time.Minute)
	if err := h.CheckOwner(r, "guess"); !errors.Is(err, dash.ErrNotOwner) {
		t.Errorf("a wrong token a minute later: %v, want ErrNotOwner", err)
	}
}
