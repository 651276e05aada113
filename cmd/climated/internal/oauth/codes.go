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
// resource and scopes. At most MaxCodes wait to be redeemed.
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
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM oauth_codes").Scan(&n); err != nil {
		return "", fmt.Errorf("count codes: %w", err)
	}
	if n >= s.opts.MaxCodes {
		return "", &oauthError{http.StatusServiceUnavailable, "temporarily_unavailable", fmt.Sprintf("%d sign-ins are waiting to be completed: try again in a minute", n)}
	}
	if isCIMD(ar.Client.ID) {
		// Approved by the owner: kept, so that climated clients lists it
		// and can revoke it; its document is still fetched at each sign-in.
		uris, _ := json.Marshal(ar.Client.RedirectURIs)
		_, err = tx.ExecContext(ctx, `INSERT INTO oauth_clients (id, name, redirect_uris, created, last_used) VALUES (?, ?, ?, ?, 0)
			ON CONFLICT (id) DO UPDATE SET name = excluded.name, redirect_uris = excluded.redirect_uris`, ar.Client.ID, ar.Client.Name, string(uris), now.Unix())
		if err != nil {
			return "", fmt.Errorf("keep client: %w", err)
		}
	}
	_, err = tx.ExecContext(ctx, "INSERT INTO oauth_codes (hash, client_id, redirect_uri, challenge, resource, scope, expires) VALUES (?, ?, ?, ?, ?, ?, ?)",
		hash(code), ar.Client.ID, ar.RedirectURI, ar.CodeChallenge, ar.Resource, strings.Join(ar.Scopes, " "), now.Add(s.opts.CodeTTL).Unix())
	if err != nil {
		return "", fmt.Errorf("issue code: %w", err)
	}
	return code, tx.Commit()
}

// codeGrant is what a redeemed code carried.
type codeGrant struct {
	clientID, redirectURI, challenge, resource, scope string
	expires                                           int64
}

// redeemCode deletes the code and checks the token request against it.
// Deleting first makes a code single-use even when two requests race.
func (s *Server) redeemCode(ctx context.Context, req tokenRequest) (*codeGrant, error) {
	var g codeGrant
	err := s.db.QueryRowContext(ctx, "DELETE FROM oauth_codes WHERE hash = ? RETURNING client_id, redirect_uri, challenge, resource, scope, expires", hash(req.code)).
		Scan(&g.clientID, &g.redirectURI, &g.challenge, &g.resource, &g.scope, &g.expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, invalidGrant("the code is unknown, used already or expired: sign in again")
	}
	if err != nil {
		return nil, fmt.Errorf("redeem code: %w", err)
	}
	switch {
	case s.opts.Now().Unix() >= g.expires:
		return nil, invalidGrant("the code expired: sign in again")
	case g.clientID != req.clientID:
		return nil, invalidGrant("the code was issued to another client")
	case g.resource != s.opts.Resource:
		return nil, invalidTarget("the code was issued for another resource: sign in again")
	case g.redirectURI != req.redirectURI:
		return nil, invalidGrant("redirect_uri differs from the one of the authorization request")
	case req.verifier == "":
		return nil, invalidGrant("code_verifier is missing: the hub requires PKCE")
	case !validVerifier(req.verifier):
		return nil, invalidGrant("code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~")
	case subtle.ConstantTimeCompare([]byte(pkceS256(req.verifier)), []byte(g.challenge)) != 1:
		return nil, invalidGrant("code_verifier does not match the code_challenge (S256)")
	}
	if e := s.checkResource(req.resource, false); e != nil {
		return nil, e
	}
	return &g, nil
}
