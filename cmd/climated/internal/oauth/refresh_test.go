package oauth_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

const reuseInterval, maxPairs = oauth.DefaultReuseInterval, oauth.DefaultMaxPairs

// refresh posts a refresh with token for client.
func (h *hub) refresh(client, token string) (int, map[string]any) {
	h.t.Helper()
	return h.token(url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "refresh_token": {token}})
}

// mustRefresh refreshes and returns the new access and refresh tokens.
func (h *hub) mustRefresh(client, token string) (access, refresh string) {
	h.t.Helper()
	status, m := h.refresh(client, token)
	if status != http.StatusOK {
		h.t.Fatalf("refresh: %d %v", status, m)
	}
	return m["access_token"].(string), m["refresh_token"].(string)
}

// live checks that each access token opens the hub (want true) or not.
func (h *hub) live(t *testing.T, want bool, what string, access ...string) {
	t.Helper()
	for i, a := range access {
		_, err := h.srv.Verify(context.Background(), a, nil)
		switch {
		case want && err != nil:
			t.Errorf("%s, access token %d: %v, want it to work", what, i, err)
		case !want && !errors.Is(err, auth.ErrInvalidToken):
			t.Errorf("%s, access token %d: %v, want ErrInvalidToken", what, i, err)
		}
	}
}

// pairs counts the token pairs the hub keeps of family (the part of a
// refresh token before its dot).
func (h *hub) pairs(refresh string) int {
	h.t.Helper()
	family, _, _ := strings.Cut(refresh, ".")
	var n int
	if err := h.sql().QueryRow("SELECT count(*) FROM oauth_tokens WHERE family = ?", family).Scan(&n); err != nil {
		h.t.Fatal(err)
	}
	return n
}

// postToken is a /token request a goroutine other than the test's may
// make (it reports instead of failing the test).
func postToken(base string, form url.Values) (int, map[string]any, error) {
	resp, err := http.PostForm(base+oauth.PathToken, form)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		return resp.StatusCode, nil, fmt.Errorf("token answer %d is not JSON: %w", resp.StatusCode, err)
	}
	return resp.StatusCode, m, nil
}

// TestRacingRefreshes: two refreshes racing with one refresh token (a
// client racing itself) both get a working pair, and the grant lives on:
// the answer the client keeps refreshes.
func TestRacingRefreshes(t *testing.T) {
	h := newHub(t, nil)
	client, _, r0 := h.signIn()
	form := url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "refresh_token": {r0}}
	var got [2]map[string]any
	var status [2]int
	var errs [2]error
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { <-start; status[i], got[i], errs[i] = postToken(h.base, form) })
	}
	close(start)
	wg.Wait()
	for i := range got {
		if errs[i] != nil || status[i] != http.StatusOK {
			t.Fatalf("refresh %d of 2 racing: %d %v %v", i, status[i], got[i], errs[i])
		}
	}
	if got[0]["refresh_token"] == got[1]["refresh_token"] || got[0]["access_token"] == got[1]["access_token"] {
		t.Fatalf("two racing refreshes got the same tokens: %v", got)
	}
	h.live(t, true, "after two racing refreshes", got[0]["access_token"].(string), got[1]["access_token"].(string))
	a2, _ := h.mustRefresh(client, got[1]["refresh_token"].(string))
	h.live(t, true, "the refreshed pair", a2)
}

// TestRefreshLostAnswer: a refresh whose answer never reached the client
// (the hub rotated, the connection dropped) is retried with the old
// refresh token within the reuse interval and gets a working pair; the
// access token the client still holds works until the new pair is used.
func TestRefreshLostAnswer(t *testing.T) {
	h := newHub(t, nil)
	client, a0, r0 := h.signIn()
	h.mustRefresh(client, r0) // the answer lost on the way
	h.clock.add(reuseInterval - time.Second)
	h.live(t, true, "the old pair before the retry", a0)
	a1, r1 := h.mustRefresh(client, r0)
	h.live(t, true, "the retry's pair", a1)
	h.live(t, true, "the old pair after the retry", a0)
	a2, _ := h.mustRefresh(client, r1)
	h.live(t, true, "the retry's successor", a2)
	h.live(t, false, "the old pair once its successor was used", a0)
	if !strings.Contains(h.logText(), "oauth refresh token retried") {
		t.Errorf("the retry is not logged:\n%s", h.logText())
	}
}

// TestRefreshReuse: a refresh token presented once its successor was
// used, or after the reuse interval, is reuse: the grant is revoked, the
// newest tokens with it.
func TestRefreshReuse(t *testing.T) {
	for name, tc := range map[string]func(h *hub, client, r0 string) (reused string, newest []string){
		// The rotated-out token again once its successor refreshed.
		"after its successor was used": func(h *hub, client, r0 string) (string, []string) {
			a1, r1 := h.mustRefresh(client, r0)
			a2, r2 := h.mustRefresh(client, r1)
			return r0, []string{a1, a2, r2}
		},
		// The rotated-out token again, its successor never used.
		"after the reuse interval": func(h *hub, client, r0 string) (string, []string) {
			a1, r1 := h.mustRefresh(client, r0)
			h.clock.add(reuseInterval)
			return r0, []string{a1, r1}
		},
		// Of two pairs a retry made, the one not kept after the other refreshed.
		"a sibling after the other was used": func(h *hub, client, r0 string) (string, []string) {
			_, r1 := h.mustRefresh(client, r0)
			a1b, r1b := h.mustRefresh(client, r0)
			a2, r2 := h.mustRefresh(client, r1b)
			return r1, []string{a1b, a2, r2}
		},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHub(t, nil)
			client, _, r0 := h.signIn()
			reused, newest := tc(h, client, r0)
			status, m := h.refresh(client, reused)
			wantError(t, status, m, http.StatusBadRequest, "invalid_grant")
			for _, tok := range newest {
				if strings.Contains(tok, ".") { // a refresh token
					status, m := h.refresh(client, tok)
					wantError(t, status, m, http.StatusBadRequest, "invalid_grant")
				} else {
					h.live(t, false, "the revoked grant's newest pair", tok)
				}
			}
			if !strings.Contains(h.logText(), "oauth refresh token reused") {
				t.Errorf("the reuse is not logged:\n%s", h.logText())
			}
		})
	}
}

// TestRefreshPairsBounded: one refresh token gets at most maxPairs-1
// successors; a further retry is refused, and the grant lives on, its
// pairs working. Using a successor leaves two pairs: it and its own.
func TestRefreshPairsBounded(t *testing.T) {
	h := newHub(t, nil)
	client, _, r0 := h.signIn()
	var access, refresh []string
	for range maxPairs - 1 {
		a, r := h.mustRefresh(client, r0)
		access, refresh = append(access, a), append(refresh, r)
	}
	status, m := h.refresh(client, r0)
	wantError(t, status, m, http.StatusBadRequest, "invalid_grant")
	h.live(t, true, "the successors after a retry over the bound", access...)
	if n := h.pairs(r0); n != maxPairs {
		t.Errorf("the grant holds %d pairs, want %d", n, maxPairs)
	}
	a, _ := h.mustRefresh(client, refresh[len(refresh)-1])
	h.live(t, true, "the newest pair", a)
	h.live(t, false, "the successors not used", access[:len(access)-1]...)
	if n := h.pairs(r0); n != 2 {
		t.Errorf("after a successor was used the grant holds %d pairs, want 2", n)
	}
}

// TestRevokeEndsEveryPair: revoking a client ends every pair of its
// grants, those a retried refresh made too, and keeps none of them.
func TestRevokeEndsEveryPair(t *testing.T) {
	h := newHub(t, nil)
	client, a0, r0 := h.signIn()
	a1, _ := h.mustRefresh(client, r0)
	a2, r2 := h.mustRefresh(client, r0)
	h.live(t, true, "before the revocation", a0, a1, a2)
	h.revoke(t, client, a2, r2)
	h.live(t, false, "after the revocation", a0, a1)
	if n := h.pairs(r0); n != 0 {
		t.Errorf("%d pairs of the revoked grant kept", n)
	}
}
