package oauth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// tokenResponse is the answer of RFC 6749 §5.1.
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
}

// newGrant starts a token family for a redeemed code, in the
// redemption's transaction, and only for a client still listed: the
// client's row must take the grant's time of use. A client holds at most
// MaxGrants families: the oldest are dropped to make room, and expired
// ones of every client go.
func (s *Server) newGrant(ctx context.Context, tx *sql.Tx, g *codeGrant) (string, *tokenResponse, error) {
	now := s.opts.Now()
	res, err := tx.ExecContext(ctx, "UPDATE oauth_clients SET last_used = ? WHERE id = ?", now.Unix(), g.clientID)
	if err != nil {
		return "", nil, fmt.Errorf("grant: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return "", nil, invalidGrant(fmt.Sprintf("client %s is no longer registered (revoked, or its registration expired): register and sign in again", g.clientID))
	}
	// Grants whose refresh tokens all expired can never be used again.
	if _, err = tx.ExecContext(ctx, "DELETE FROM oauth_grants WHERE family NOT IN (SELECT family FROM oauth_tokens WHERE refresh_expires > ?)", now.Unix()); err != nil {
		return "", nil, fmt.Errorf("drop expired grants: %w", err)
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM oauth_grants WHERE client_id = ? AND family NOT IN
		(SELECT family FROM oauth_grants WHERE client_id = ? ORDER BY created DESC LIMIT ?)`, g.clientID, g.clientID, s.opts.MaxGrants-1)
	if err != nil {
		return "", nil, fmt.Errorf("drop old grants: %w", err)
	}
	family := newSecret()[:22]
	_, err = tx.ExecContext(ctx, "INSERT INTO oauth_grants (family, client_id, resource, scope, created, last_used) VALUES (?, ?, ?, ?, ?, ?)",
		family, g.clientID, g.resource, g.scope, now.Unix(), now.Unix())
	if err != nil {
		return "", nil, fmt.Errorf("grant: %w", err)
	}
	resp, err := s.issuePair(ctx, tx, family, g.scope)
	return family, resp, err
}

// issuePair adds a token pair to family and answers with it.
func (s *Server) issuePair(ctx context.Context, tx *sql.Tx, family, scope string) (*tokenResponse, error) {
	now := s.opts.Now()
	refresh, access := newSecret(), newSecret()
	_, err := tx.ExecContext(ctx, "INSERT INTO oauth_tokens (refresh_hash, family, access_hash, created, refresh_expires, access_expires) VALUES (?, ?, ?, ?, ?, ?)",
		hash(refresh), family, hash(access), now.Unix(), now.Add(s.opts.RefreshTTL).Unix(), now.Add(s.opts.AccessTTL).Unix())
	if err != nil {
		return nil, fmt.Errorf("issue tokens: %w", err)
	}
	return s.answer(access, family+"."+refresh, scope), nil
}

func (s *Server) answer(access, refresh, scope string) *tokenResponse {
	return &tokenResponse{AccessToken: access, TokenType: "Bearer", ExpiresIn: int64(s.opts.AccessTTL.Seconds()), RefreshToken: refresh, Scope: scope}
}

// inTx runs f in a transaction and commits what it did, unless it failed
// for another reason than a refusal: what a refused request did (a code
// used up, a grant revoked) stands.
func (s *Server) inTx(ctx context.Context, what string, f func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer tx.Rollback()
	err = f(tx)
	var refused *oauthError
	if err != nil && !errors.As(err, &refused) {
		return err
	}
	if cerr := tx.Commit(); cerr != nil {
		return fmt.Errorf("%s: %w", what, cerr)
	}
	return err
}
