package oauth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// refresh answers a refresh_token grant. Refresh tokens rotate on every
// use, and a family (a grant) holds the pairs it issued until one of them
// is used (oauth_tokens, step 003_tokens): the pair last refreshed from and
// the successors it gave. That pair's refresh token may be presented
// again for ReuseInterval after its first use, while none of its
// successors has been used, and gets one more successor (MaxPairs pairs
// in all): a lost answer or a client racing itself no longer ends the
// grant (as Auth0's reuse interval, Okta's grace period and Ory Hydra's
// graceful rotation allow). Using a successor ends every other pair of
// the family; a refresh token the family no longer holds, or one retried
// after the interval, is reuse and revokes the family (RFC 9700 §4.14.2).
// It all runs in one transaction, so that rotations of one family and a
// revocation beside them never interleave; a refusal that revoked the
// family is committed.
func (s *Server) refresh(ctx context.Context, req tokenRequest) (*tokenResponse, error) {
	family, secret, ok := strings.Cut(req.refresh, ".")
	if !ok || family == "" || secret == "" {
		return nil, invalidGrant("the refresh token is malformed")
	}
	var resp *tokenResponse
	err := s.inTx(ctx, "refresh", func(tx *sql.Tx) (err error) {
		resp, err = s.refreshIn(ctx, tx, req, family, hash(secret))
		return err
	})
	return resp, err
}

// grantOf is what a family's pairs share.
type grantOf struct {
	clientID, resource, scope string
}

// refreshIn checks the presented refresh token (its family's, hashed)
// and gives its next pair.
func (s *Server) refreshIn(ctx context.Context, tx *sql.Tx, req tokenRequest, family string, h []byte) (*tokenResponse, error) {
	var g grantOf
	err := tx.QueryRowContext(ctx, "SELECT client_id, resource, scope FROM oauth_grants WHERE family = ?"+listedClient, family).
		Scan(&g.clientID, &g.resource, &g.scope)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, invalidGrant("the refresh token is unknown or revoked: sign in again")
	}
	if err != nil {
		return nil, fmt.Errorf("refresh: %w", err)
	}
	if g.clientID != req.clientID {
		return nil, invalidGrant("the refresh token was issued to another client")
	}
	var firstUsed, expires int64
	err = tx.QueryRowContext(ctx, "SELECT first_used, refresh_expires FROM oauth_tokens WHERE family = ? AND refresh_hash = ?", family, h).
		Scan(&firstUsed, &expires)
	now := s.opts.Now().Unix()
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, s.revokeFamily(ctx, tx, family, g.clientID, "reused")
	case err != nil:
		return nil, fmt.Errorf("refresh: %w", err)
	case now >= expires:
		return nil, s.revokeFamily(ctx, tx, family, g.clientID, "expired")
	case firstUsed != 0 && now >= firstUsed+int64(s.opts.ReuseInterval.Seconds()):
		return nil, s.revokeFamily(ctx, tx, family, g.clientID, "reused")
	}
	if e := s.checkResource(req.resource, false); e != nil {
		return nil, e
	}
	if !s.ours(g.resource) {
		return nil, invalidTarget("the grant is for another resource: sign in again")
	}
	if firstUsed == 0 {
		err = rotate(ctx, tx, family, h, now)
	} else {
		err = s.retry(ctx, tx, family, g.clientID)
	}
	if err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE oauth_grants SET last_used = ? WHERE family = ?", now, family); err != nil {
		return nil, fmt.Errorf("refresh: %w", err)
	}
	return s.issuePair(ctx, tx, family, g.scope)
}

// rotate makes the pair of refresh hash h, used for the first time, the
// one its family refreshes from: every other pair (the one it came from,
// the other successors that one gave) ends.
func rotate(ctx context.Context, tx *sql.Tx, family string, h []byte, now int64) error {
	if _, err := tx.ExecContext(ctx, "UPDATE oauth_tokens SET first_used = ? WHERE refresh_hash = ?", now, h); err != nil {
		return fmt.Errorf("rotate: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM oauth_tokens WHERE family = ? AND refresh_hash <> ?", family, h); err != nil {
		return fmt.Errorf("rotate: %w", err)
	}
	return nil
}

// retry allows one more successor of the family's used pair, within
// MaxPairs; beyond, the retry is refused and the family kept.
func (s *Server) retry(ctx context.Context, tx *sql.Tx, family, clientID string) error {
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM oauth_tokens WHERE family = ?", family).Scan(&n); err != nil {
		return fmt.Errorf("count pairs: %w", err)
	}
	if n >= s.opts.MaxPairs {
		s.opts.Logger.Warn("oauth refresh token retried too often: refused", "client_id", clientID, "pairs", n)
		return invalidGrant(fmt.Sprintf("the refresh token gave %d pairs already: use the newest tokens it gave", n-1))
	}
	s.opts.Logger.Info("oauth refresh token retried within the reuse interval", "client_id", clientID, "pairs", n+1)
	return nil
}

// revokeFamily deletes a grant, and with it every pair (the trigger of
// step 003_tokens), and answers the refresh that found it reused or
// expired.
func (s *Server) revokeFamily(ctx context.Context, tx *sql.Tx, family, clientID, why string) error {
	if _, err := tx.ExecContext(ctx, "DELETE FROM oauth_grants WHERE family = ?", family); err != nil {
		return fmt.Errorf("revoke grant: %w", err)
	}
	s.opts.Logger.Warn("oauth refresh token "+why+": grant revoked", "client_id", clientID)
	if why == "expired" {
		return invalidGrant("the refresh token expired: sign in again")
	}
	return invalidGrant("the refresh token was used before: its grant is revoked, sign in again")
}
