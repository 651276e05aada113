package oauth

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// IssueCode makes the authorization code for an approved request: single
// use, living CodeTTL, bound to the client, redirect URI, PKCE challenge,
// resource and scopes. At most MaxCodes wait to be redeemed; used codes
// are kept until they expire, to tell a replay.
func (s *Server) IssueCode(ctx context.Context, ar *AuthRequest) (string, error) {
	now := s.opts.Now()
	code := newSecret()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return "", fmt.Errorf("issue code: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM oauth_codes WHERE expires <= ?", now.Unix()); err != nil {
		return "", fmt.Errorf("drop expired codes: %w", err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM oauth_codes WHERE used = 0").Scan(&n); err != nil {
		return "", fmt.Errorf("count codes: %w", err)
	}
	if n >= s.opts.MaxCodes {
		return "", &oauthError{http.StatusServiceUnavailable, "temporarily_unavailable", fmt.Sprintf("%d sign-ins are waiting to be completed: try again in a minute", n)}
	}
	if err := keepClient(ctx, tx, ar.Client, now.Unix()); err != nil {
		return "", err
	}
	_, err = tx.ExecContext(ctx, "INSERT INTO oauth_codes (hash, client_id, redirect_uri, challenge, resource, scope, expires) VALUES (?, ?, ?, ?, ?, ?, ?)",
		hash(code), ar.Client.ID, ar.RedirectURI, ar.CodeChallenge, ar.Resource, strings.Join(ar.Scopes, " "), now.Add(s.opts.CodeTTL).Unix())
	if err != nil {
		return "", fmt.Errorf("issue code: %w", err)
	}
	return code, tx.Commit()
}

// keepClient lists the approved client in the transaction that issues
// its code, which then keeps it from the clean-up. A client named by its
// Client ID Metadata Document is kept from now on, so that climated
// clients lists it and can revoke it (its document is still fetched at
// each sign-in); a registered one must still be there: the clean-up or a
// revocation may have removed it while the owner read the page.
func keepClient(ctx context.Context, tx *sql.Tx, c *Client, now int64) error {
	if !isCIMD(c.ID) {
		var one int
		err := tx.QueryRowContext(ctx, "SELECT 1 FROM oauth_clients WHERE id = ?", c.ID).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return invalidClient(fmt.Sprintf("the registration of %s expired or was revoked while the page was open: start the sign-in again from the assistant", c.ID))
		}
		if err != nil {
			return fmt.Errorf("read client: %w", err)
		}
		return nil
	}
	uris, _ := json.Marshal(c.RedirectURIs)
	_, err := tx.ExecContext(ctx, `INSERT INTO oauth_clients (id, name, redirect_uris, created, last_used) VALUES (?, ?, ?, ?, 0)
		ON CONFLICT (id) DO UPDATE SET name = excluded.name, redirect_uris = excluded.redirect_uris`, c.ID, c.Name, string(uris), now)
	if err != nil {
		return fmt.Errorf("keep client: %w", err)
	}
	return nil
}

// codeGrant is what a redeemed code carried.
type codeGrant struct {
	clientID, redirectURI, challenge, resource, scope string
	expires                                           int64
}

// redeemCode turns a code into a grant in one transaction, so that a
// grant is only ever made for a client still listed, whatever revocation
// or clean-up runs beside it. A refusal is committed too: the code stays
// used up, and a replayed code's grant stays revoked.
func (s *Server) redeemCode(ctx context.Context, req tokenRequest) (*tokenResponse, error) {
	var g *codeGrant
	var resp *tokenResponse
	err := s.inTx(ctx, "redeem code", func(tx *sql.Tx) (err error) {
		g, resp, err = s.redeemIn(ctx, tx, req)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.opts.Logger.Info("oauth grant", "client_id", g.clientID, "scope", g.scope)
	return resp, nil
}

// redeemIn marks the code used (first, so that of two requests racing
// with one code only one finds it waiting), checks the token request
// against it, makes the grant and notes its family beside the code.
func (s *Server) redeemIn(ctx context.Context, tx *sql.Tx, req tokenRequest) (*codeGrant, *tokenResponse, error) {
	h := hash(req.code)
	var g codeGrant
	err := tx.QueryRowContext(ctx, "UPDATE oauth_codes SET used = 1 WHERE hash = ? AND used = 0 RETURNING client_id, redirect_uri, challenge, resource, scope, expires", h).
		Scan(&g.clientID, &g.redirectURI, &g.challenge, &g.resource, &g.scope, &g.expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, s.replayed(ctx, tx, h)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("redeem code: %w", err)
	}
	if err := s.checkCode(&g, req); err != nil {
		return nil, nil, err
	}
	family, resp, err := s.newGrant(ctx, tx, &g)
	if err != nil {
		return nil, nil, err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE oauth_codes SET family = ? WHERE hash = ?", family, h); err != nil {
		return nil, nil, fmt.Errorf("redeem code: %w", err)
	}
	return &g, resp, nil
}

// replayed answers a code that is not waiting to be redeemed. One used
// before revokes the grant it made (RFC 6749 §4.1.2): whoever presents it
// again holds a copy, and the first redemption may have been theirs.
func (s *Server) replayed(ctx context.Context, tx *sql.Tx, h []byte) error {
	var clientID, family string
	err := tx.QueryRowContext(ctx, "SELECT client_id, family FROM oauth_codes WHERE hash = ?", h).Scan(&clientID, &family)
	if errors.Is(err, sql.ErrNoRows) {
		return invalidGrant("the code is unknown, used already or expired: sign in again")
	}
	if err != nil {
		return fmt.Errorf("redeem code: %w", err)
	}
	res, err := tx.ExecContext(ctx, "DELETE FROM oauth_grants WHERE family = ?", family)
	if err != nil {
		return fmt.Errorf("revoke a replayed code's grant: %w", err)
	}
	n, _ := res.RowsAffected()
	s.opts.Logger.Warn("oauth code replayed: the grant it made is revoked", "client_id", clientID, "grants_revoked", n)
	return invalidGrant("the code was used before: the tokens it gave are revoked, sign in again")
}

// checkCode checks the token request against what its code carried.
func (s *Server) checkCode(g *codeGrant, req tokenRequest) error {
	switch {
	case s.opts.Now().Unix() >= g.expires:
		return invalidGrant("the code expired: sign in again")
	case g.clientID != req.clientID:
		return invalidGrant("the code was issued to another client")
	case !s.ours(g.resource):
		return invalidTarget("the code was issued for another resource: sign in again")
	case g.redirectURI != req.redirectURI:
		return invalidGrant("redirect_uri differs from the one of the authorization request")
	case req.verifier == "":
		return invalidGrant("code_verifier is missing: the hub requires PKCE")
	case !validVerifier(req.verifier):
		return invalidGrant("code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~")
	case subtle.ConstantTimeCompare([]byte(pkceS256(req.verifier)), []byte(g.challenge)) != 1:
		return invalidGrant("code_verifier does not match the code_challenge (S256)")
	}
	if e := s.checkResource(req.resource, false); e != nil {
		return e
	}
	return nil
}
