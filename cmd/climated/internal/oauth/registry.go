package oauth

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"
)

// ClientInfo is a connected app as `climated clients` and the dashboard
// show it.
type ClientInfo struct {
	ID           string
	Name         string
	RedirectURIs []string
	Scopes       []string  // of all its live grants together
	Grants       int       // live grants (signed-in devices or sessions)
	Registered   time.Time //
	LastUsed     time.Time // zero until its first sign-in
}

// Registry is the connected apps, listed and revoked beside a running
// hub (climated clients): the OAuth tables without the server.
type Registry struct {
	db  *sql.DB
	log *slog.Logger
}

// OpenRegistry opens the OAuth tables of the history database at path;
// log (nil: none) has the revocations.
func OpenRegistry(ctx context.Context, path string, log *slog.Logger) (*Registry, error) {
	db, err := openDB(ctx, path)
	if err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Registry{db, log}, nil
}

// Close closes the connection.
func (r *Registry) Close() error { return r.db.Close() }

// Clients lists the registered clients (Registry.Clients).
func (s *Server) Clients(ctx context.Context) ([]ClientInfo, error) {
	return (&Registry{s.db, s.opts.Logger}).Clients(ctx)
}

// Revoke removes a client (Registry.Revoke).
func (s *Server) Revoke(ctx context.Context, id string) error {
	return (&Registry{s.db, s.opts.Logger}).Revoke(ctx, id)
}

// Clients lists the registered clients, the most recently used first.
func (r *Registry) Clients(ctx context.Context) ([]ClientInfo, error) {
	rows, err := r.db.QueryContext(ctx, `SELECT c.id, c.name, c.redirect_uris, c.created, max(c.last_used, coalesce(max(g.last_used), 0)),
		count(g.family), coalesce(group_concat(g.scope, ' '), '')
		FROM oauth_clients c LEFT JOIN oauth_grants g ON g.client_id = c.id
		GROUP BY c.id ORDER BY 5 DESC, c.created DESC`)
	if err != nil {
		return nil, fmt.Errorf("list clients: %w", err)
	}
	defer rows.Close()
	var out []ClientInfo
	for rows.Next() {
		var c ClientInfo
		var uris, scope string
		var created, used int64
		if err := rows.Scan(&c.ID, &c.Name, &uris, &created, &used, &c.Grants, &scope); err != nil {
			return nil, fmt.Errorf("list clients: %w", err)
		}
		json.Unmarshal([]byte(uris), &c.RedirectURIs)
		c.Registered = time.Unix(created, 0)
		if used > 0 {
			c.LastUsed = time.Unix(used, 0)
		}
		c.Scopes = uniqueScopes(scope)
		out = append(out, c)
	}
	return out, rows.Err()
}

func uniqueScopes(s string) []string {
	var out []string
	for _, sc := range scopes {
		for _, f := range strings.Fields(s) {
			if f == sc {
				out = append(out, sc)
				break
			}
		}
	}
	return out
}

// ErrNoClient says Revoke was given an id the hub does not know.
var ErrNoClient = fmt.Errorf("no such client: climated clients lists them")

// Revoke removes a client with its grants and codes: its tokens stop
// working at once, and it must register and be approved again. It ends
// every grant of the id whether or not the id is still registered;
// ErrNoClient means the hub held nothing of it.
func (r *Registry) Revoke(ctx context.Context, id string) error {
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("revoke %s: %w", id, err)
	}
	defer tx.Rollback()
	var n [3]int64
	for i, q := range []string{"DELETE FROM oauth_clients WHERE id = ?", "DELETE FROM oauth_grants WHERE client_id = ?", "DELETE FROM oauth_codes WHERE client_id = ?"} {
		res, err := tx.ExecContext(ctx, q, id)
		if err != nil {
			return fmt.Errorf("revoke %s: %w", id, err)
		}
		n[i], _ = res.RowsAffected()
	}
	if n == [3]int64{} {
		return fmt.Errorf("revoke %s: %w", id, ErrNoClient)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("revoke %s: %w", id, err)
	}
	r.log.Info("oauth client revoked", "client_id", id, "registered", n[0] == 1, "grants", n[1])
	return nil
}
