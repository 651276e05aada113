package transport

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// DefaultGrantRecheck is how often the sessions and streams opened with
// OAuth tokens are checked against the authorization server: a client
// revoked from another process (climated clients revoke) loses them
// within it. One indexed read per token and per client held open; the
// dashboard's revoke, in the hub's own process, checks at once.
const DefaultGrantRecheck = 2 * time.Second

// Grants is what the transports ask of the hub's authorization server
// (package oauth) while a session or stream opened with one of its tokens
// lasts.
type Grants interface {
	// TokenLive is nil while the access token still opens the hub: not
	// expired, rotated out, or revoked.
	TokenLive(ctx context.Context, token string) error
	// ClientLive is nil while the client still holds a grant: it has not
	// been revoked.
	ClientLive(ctx context.Context, clientID string) error
}

// grantWatch ends what an OAuth sign-in opened once the sign-in no longer
// holds: an event stream (GET /sse, the GET of a Streamable HTTP session,
// a subscriptions/listen) when the access token it was opened with
// expires or stops working, a Streamable HTTP session when its client is
// revoked. The token's own requests are refused by the front; without
// this, what was already open went on delivering events.
type grantWatch struct {
	every time.Duration
	now   func() time.Time

	mu     sync.Mutex
	grants Grants
	held   map[*grantHold]struct{}
	kick   chan struct{}
}

// grantHold is one thing held open with a token: a stream (token set) or a
// session (client alone).
type grantHold struct {
	kind    string
	token   string // "" for a session: it lives as long as its client's grant
	client  string
	expires time.Time // the token's; zero for a session
	end     func()
}

func newGrantWatch(every time.Duration, now func() time.Time) *grantWatch {
	return &grantWatch{every: every, now: now, held: map[*grantHold]struct{}{}, kick: make(chan struct{}, 1)}
}

// WatchGrants has the transports end the sessions and streams opened with
// g's tokens once they no longer hold; until it is called, none are
// watched.
func (t *HTTP) WatchGrants(g Grants) {
	t.grants.mu.Lock()
	t.grants.grants = g
	t.grants.mu.Unlock()
}

// RecheckGrants checks at once, as after a revoke in this process.
func (t *HTTP) RecheckGrants() {
	select {
	case t.grants.kick <- struct{}{}:
	default:
	}
}

// watchStream has r's context ended when the OAuth token r came with stops
// working; a request without one (the static token, stdio) is returned as
// it is. The returned func stops watching.
func (w *grantWatch) watchStream(r *http.Request, kind string) (*http.Request, func()) {
	ti := auth.TokenInfoFromContext(r.Context())
	if ti == nil {
		return r, func() {}
	}
	// Fails closed: a token the front took but this cannot read from the
	// header is watched by its client and its expiry all the same.
	token, _ := bearerToken(r)
	ctx, cancel := context.WithCancel(r.Context())
	release := w.add(&grantHold{kind: kind, token: token, client: ti.UserID, expires: ti.Expiration, end: cancel})
	// Checked once more now that it is held: a revoke that came after the
	// front verified the token, and whose recheck ran before the hold was
	// added, would otherwise leave the stream open until the next recheck.
	w.mu.Lock()
	g := w.grants
	w.mu.Unlock()
	if g != nil && token != "" && g.TokenLive(ctx, token) != nil {
		cancel()
	}
	return r.WithContext(ctx), func() {
		release()
		cancel()
	}
}

// watchSession has end called when the client of r's OAuth token is
// revoked; nothing when r came without one. The returned func stops
// watching.
func (w *grantWatch) watchSession(r *http.Request, kind string, end func()) func() {
	ti := auth.TokenInfoFromContext(r.Context())
	if ti == nil {
		return func() {}
	}
	return w.add(&grantHold{kind: kind, client: ti.UserID, end: end})
}

// bearerToken is the token of r's Authorization header, read as go-sdk's
// RequireBearerToken reads it (the scheme's name in any case, any
// whitespace around the token): a token the front took is watched
// whatever its spelling.
func bearerToken(r *http.Request) (string, bool) {
	fields := strings.Fields(r.Header.Get("Authorization"))
	if len(fields) != 2 || !strings.EqualFold(fields[0], "bearer") {
		return "", false
	}
	return fields[1], true
}

func (w *grantWatch) add(h *grantHold) func() {
	w.mu.Lock()
	w.held[h] = struct{}{}
	w.mu.Unlock()
	return func() {
		w.mu.Lock()
		delete(w.held, h)
		w.mu.Unlock()
	}
}

// run checks every DefaultGrantRecheck, and at once when kicked, until
// ctx ends.
func (w *grantWatch) run(ctx context.Context, log *slog.Logger) {
	repeat(ctx, w.every, w.kick, func() { w.check(ctx, log) })
}

// check ends every hold whose sign-in no longer holds. Each token and each
// client is asked once. An error reading the grants ends the hold too: a
// check that cannot tell fails closed, and a client whose sign-in holds
// opens its stream again.
func (w *grantWatch) check(ctx context.Context, log *slog.Logger) {
	w.mu.Lock()
	g := w.grants
	holds := make([]*grantHold, 0, len(w.held))
	for h := range w.held {
		holds = append(holds, h)
	}
	w.mu.Unlock()
	if g == nil || len(holds) == 0 {
		return
	}
	now := w.now()
	verdicts := map[string]error{}
	for _, h := range holds {
		key, ask := "client "+h.client, func() error { return g.ClientLive(ctx, h.client) }
		if h.token != "" {
			key, ask = "token "+h.token, func() error { return g.TokenLive(ctx, h.token) }
		}
		err, seen := verdicts[key]
		if !seen {
			err = ask()
			verdicts[key] = err
		}
		if err == nil && !h.expires.IsZero() && !now.Before(h.expires) {
			err = errTokenExpired
		}
		if err != nil && ctx.Err() == nil {
			w.end(h)
			log.Info("ended an MCP "+h.kind+" opened with OAuth: its sign-in no longer holds", "client_id", h.client, "why", err.Error())
		}
	}
}

func (w *grantWatch) end(h *grantHold) {
	w.mu.Lock()
	_, held := w.held[h]
	delete(w.held, h)
	w.mu.Unlock()
	if held {
		h.end()
	}
}

// errTokenExpired is a stream's end at its token's expiry.
var errTokenExpired = errors.New("the access token expired")
