package oauth

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode"
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

// addClient keeps c unless the hub already holds MaxClients; before
// counting, it drops registrations never used within UnusedClient.
func (s *Server) addClient(ctx context.Context, c Client) error {
	now := s.opts.Now()
	uris, _ := json.Marshal(c.RedirectURIs)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("add client: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM oauth_clients WHERE last_used = 0 AND created < ? AND id NOT IN (SELECT client_id FROM oauth_grants)", now.Add(-s.opts.UnusedClient).Unix()); err != nil {
		return fmt.Errorf("drop unused clients: %w", err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM oauth_clients").Scan(&n); err != nil {
		return fmt.Errorf("count clients: %w", err)
	}
	if n >= s.opts.MaxClients {
		return &oauthError{403, "access_denied", fmt.Sprintf("the hub already has %d registered clients, its limit: remove one with climated clients", n)}
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO oauth_clients (id, name, redirect_uris, created, last_used) VALUES (?, ?, ?, ?, 0)", c.ID, c.Name, string(uris), now.Unix()); err != nil {
		return fmt.Errorf("add client: %w", err)
	}
	return tx.Commit()
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
