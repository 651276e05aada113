package oauth

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"errors"
	"fmt"
	"strings"
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
	// Grants whose refresh token expired can never be used again.
	if _, err = tx.ExecContext(ctx, "DELETE FROM oauth_grants WHERE refresh_expires <= ?", now.Unix()); err != nil {
		return "", nil, fmt.Errorf("drop expired grants: %w", err)
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM oauth_grants WHERE client_id = ? AND family NOT IN
		(SELECT family FROM oauth_grants WHERE client_id = ? ORDER BY created DESC LIMIT ?)`, g.clientID, g.clientID, s.opts.MaxGrants-1)
	if err != nil {
		return "", nil, fmt.Errorf("drop old grants: %w", err)
	}
	family := newSecret()[:22]
	refresh, access := newSecret(), newSecret()
	_, err = tx.ExecContext(ctx, `INSERT INTO oauth_grants (family, client_id, resource, scope, created, last_used, refresh_hash, refresh_expires, access_hash, access_expires)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, family, g.clientID, g.resource, g.scope, now.Unix(), now.Unix(),
		hash(refresh), now.Add(s.opts.RefreshTTL).Unix(), hash(access), now.Add(s.opts.AccessTTL).Unix())
	if err != nil {
		return "", nil, fmt.Errorf("grant: %w", err)
	}
	return family, s.answer(access, family+"."+refresh, g.scope), nil
}

func (s *Server) answer(access, refresh, scope string) *tokenResponse {
	return &tokenResponse{AccessToken: access, TokenType: "Bearer", ExpiresIn: int64(s.opts.AccessTTL.Seconds()), RefreshToken: refresh, Scope: scope}
}

// refresh rotates a family's tokens. A refresh token that names a live
// family but not its current secret was rotated out before: someone holds
// a copy, so the family is revoked (RFC 9700 §4.14.2).
func (s *Server) refresh(ctx context.Context, req tokenRequest) (*tokenResponse, error) {
	family, secret, ok := strings.Cut(req.refresh, ".")
	if !ok || family == "" || secret == "" {
		return nil, invalidGrant("the refresh token is malformed")
	}
	var clientID, resource, scope string
	var stored []byte
	var expires int64
	err := s.db.QueryRowContext(ctx, "SELECT client_id, resource, scope, refresh_hash, refresh_expires FROM oauth_grants WHERE family = ?"+listedClient, family).
		Scan(&clientID, &resource, &scope, &stored, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, invalidGrant("the refresh token is unknown or revoked: sign in again")
	}
	if err != nil {
		return nil, fmt.Errorf("refresh: %w", err)
	}
	if clientID != req.clientID {
		return nil, invalidGrant("the refresh token was issued to another client")
	}
	if subtle.ConstantTimeCompare(hash(secret), stored) != 1 {
		s.revokeFamily(ctx, family, clientID)
		return nil, invalidGrant("the refresh token was used before: its grant is revoked, sign in again")
	}
	now := s.opts.Now()
	if now.Unix() >= expires {
		s.revokeFamily(ctx, family, clientID)
		return nil, invalidGrant("the refresh token expired: sign in again")
	}
	if e := s.checkResource(req.resource, false); e != nil {
		return nil, e
	}
	if !s.ours(resource) {
		return nil, invalidTarget("the grant is for another resource: sign in again")
	}
	return s.rotate(ctx, family, secret, scope)
}

// rotate replaces the family's tokens, provided its refresh secret is
// still the one presented (so two racing refreshes do not both succeed).
func (s *Server) rotate(ctx context.Context, family, secret, scope string) (*tokenResponse, error) {
	now := s.opts.Now()
	refresh, access := newSecret(), newSecret()
	res, err := s.db.ExecContext(ctx, `UPDATE oauth_grants SET refresh_hash = ?, refresh_expires = ?, access_hash = ?, access_expires = ?, last_used = ?
		WHERE family = ? AND refresh_hash = ?`, hash(refresh), now.Add(s.opts.RefreshTTL).Unix(), hash(access), now.Add(s.opts.AccessTTL).Unix(), now.Unix(), family, hash(secret))
	if err != nil {
		return nil, fmt.Errorf("rotate: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return nil, invalidGrant("the refresh token was used before: sign in again")
	}
	return s.answer(access, family+"."+refresh, scope), nil
}

// revokeFamily deletes a grant; a failure is logged, as the client is
// refused either way.
func (s *Server) revokeFamily(ctx context.Context, family, clientID string) {
	if _, err := s.db.ExecContext(ctx, "DELETE FROM oauth_grants WHERE family = ?", family); err != nil {
		s.opts.Logger.Error("oauth revoke grant", "client_id", clientID, "err", err)
		return
	}
	s.opts.Logger.Warn("oauth refresh token reused or expired: grant revoked", "client_id", clientID)
}
