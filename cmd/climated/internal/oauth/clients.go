package oauth

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Bounds of one registration.
const (
	maxRedirectURIs = 5
	maxURILen       = 512
	maxNameLen      = 100
)

// Client is a registered client as the hub keeps it.
type Client struct {
	ID           string
	Name         string
	RedirectURIs []string
}

// client reads the registered client id; nil, nil when there is none.
func (s *Server) client(ctx context.Context, id string) (*Client, error) {
	var c Client
	var uris string
	err := s.db.QueryRowContext(ctx, "SELECT id, name, redirect_uris FROM oauth_clients WHERE id = ?", id).Scan(&c.ID, &c.Name, &uris)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read client: %w", err)
	}
	if err := json.Unmarshal([]byte(uris), &c.RedirectURIs); err != nil {
		return nil, fmt.Errorf("client %s: redirect URIs: %w", id, err)
	}
	return &c, nil
}

// unapproved is the condition, on oauth_clients, of a registration the
// owner never approved: no grant was ever made for it and no code of its
// waits to be redeemed. Its one parameter is the time now, Unix seconds.
const unapproved = `last_used = 0 AND id NOT IN (SELECT client_id FROM oauth_grants)
	AND id NOT IN (SELECT client_id FROM oauth_codes WHERE used = 0 AND expires > ?)`

// addClient keeps c. Registrations never approved expire after
// Options.Unapproved, and while the hub holds MaxClients the oldest of
// them make room; approved clients never do, and only a table full of
// them refuses c.
func (s *Server) addClient(ctx context.Context, c Client) error {
	now := s.opts.Now().Unix()
	uris, _ := json.Marshal(c.RedirectURIs)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("add client: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM oauth_clients WHERE created < ? AND "+unapproved, now-int64(s.opts.Unapproved/time.Second), now); err != nil {
		return fmt.Errorf("drop unapproved clients: %w", err)
	}
	evicted, err := s.makeRoom(ctx, tx, now)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO oauth_clients (id, name, redirect_uris, created, last_used) VALUES (?, ?, ?, ?, 0)", c.ID, c.Name, string(uris), now); err != nil {
		return fmt.Errorf("add client: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("add client: %w", err)
	}
	for _, id := range evicted {
		s.opts.Logger.Info("oauth registration evicted: the client table is full", "client_id", id, "max_clients", s.opts.MaxClients)
	}
	return nil
}

// makeRoom evicts the oldest registrations never approved until one more
// client fits, and returns their ids.
func (s *Server) makeRoom(ctx context.Context, tx *sql.Tx, now int64) ([]string, error) {
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM oauth_clients").Scan(&n); err != nil {
		return nil, fmt.Errorf("count clients: %w", err)
	}
	var evicted []string
	for ; n >= s.opts.MaxClients; n-- {
		var id string
		err := tx.QueryRowContext(ctx, "DELETE FROM oauth_clients WHERE id = (SELECT id FROM oauth_clients WHERE "+unapproved+
			" ORDER BY created, id LIMIT 1) RETURNING id", now).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, &oauthError{http.StatusForbidden, "access_denied", fmt.Sprintf("the hub has %d approved clients, its limit: the owner can make room with climated clients revoke CLIENT-ID, or Revoke on the dashboard", n)}
		}
		if err != nil {
			return nil, fmt.Errorf("evict an unapproved client: %w", err)
		}
		evicted = append(evicted, id)
	}
	return evicted, nil
}

// checkRedirectURI accepts an absolute https URL, or http on a loopback
// host (RFC 8252 §7.3, native apps), without a fragment.
func checkRedirectURI(s string) error {
	if len(s) > maxURILen {
		return fmt.Errorf("redirect URI longer than %d characters", maxURILen)
	}
	u, err := url.Parse(s)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return fmt.Errorf("redirect URI %q is not an absolute URL", s)
	}
	if u.Fragment != "" || strings.Contains(s, "#") {
		return fmt.Errorf("redirect URI %q has a fragment", s)
	}
	if u.Scheme != "https" && !(u.Scheme == "http" && isLoopback(u.Hostname())) {
		return fmt.Errorf("redirect URI %q: want https, or http on a loopback address", s)
	}
	return checkASCIIHost(s, u.Host)
}

// checkASCIIHost refuses a redirect URI whose host, percent-escapes
// decoded, is not ASCII. A browser maps such a name under IDNA before it
// goes there (U+3002 "。" becomes a dot, fullwidth letters ASCII ones, a
// soft hyphen nothing), and no form the consent page could show, nor the
// Content-Security-Policy it sends, is sure to be the host the browser
// visits. Clients serialise URLs with the host's xn-- form (the WHATWG
// URL standard), which the page shows as it is: a look-alike of a known
// name is plain in it.
func checkASCIIHost(uri, host string) error {
	for _, r := range host {
		if r >= utf8.RuneSelf || r <= ' ' {
			return fmt.Errorf("redirect URI %q: its host %q is not in ASCII: write an internationalised name in its xn-- form", uri, host)
		}
	}
	return nil
}

// cleanName keeps a printable client name of bounded length: the
// consent page and `climated clients` show it.
func cleanName(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return -1
	}, strings.TrimSpace(s))
	if r := []rune(s); len(r) > maxNameLen {
		s = string(r[:maxNameLen])
	}
	if s == "" {
		return "unnamed client"
	}
	return s
}

// allowed reports whether every element of got is in want.
func allowed(got, want []string) bool {
	for _, g := range got {
		if !slices.Contains(want, g) {
			return false
		}
	}
	return true
}

// requireListed is nil when the hub lists client id, and else
// invalid_client (RFC 6749 §5.2, 401): the error on which clients throw
// their registration away and register again (the TypeScript SDK's
// auth(), mcp-remote), where invalid_grant left them asking for a client
// id the hub had forgotten, after a revocation or the clean-up.
//
// A client named by its Client ID Metadata Document is not asked: it has
// no registration to throw away, and its id is a public URL (ChatGPT's),
// so an answer that differed by listing would tell anyone whether the
// owner approved that assistant. Its code or refresh token decides, and
// an unlisted one holds neither: invalid_grant, on which clients sign in
// again (the TypeScript SDK's auth() drops its tokens and authorizes anew).
func (s *Server) requireListed(ctx context.Context, id string) error {
	if isCIMD(id) {
		return nil
	}
	c, err := s.client(ctx, id)
	if err != nil {
		return err
	}
	if c == nil {
		return invalidClient(fmt.Sprintf("client_id %s is not registered with this hub (revoked, or its registration expired): register again and sign in", id))
	}
	return nil
}
