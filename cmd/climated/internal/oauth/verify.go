package oauth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// listedClient ends a query of oauth_grants: a grant counts only while
// its client is listed (and so can be revoked), whatever left it behind.
const listedClient = " AND client_id IN (SELECT id FROM oauth_clients)"

// Verify is the token verifier of go-sdk's auth.RequireBearerToken: it
// accepts a live access token minted for this hub's resource: of any pair
// its grant still holds (the pair last refreshed from works until one of
// its successors is used), until it expires.
func (s *Server) Verify(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	var clientID, resource, scope string
	var expires int64
	err := s.db.QueryRowContext(ctx, `SELECT g.client_id, g.resource, g.scope, t.access_expires
		FROM oauth_tokens t JOIN oauth_grants g ON g.family = t.family WHERE t.access_hash = ?`+listedClient, hash(token)).
		Scan(&clientID, &resource, &scope, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: unknown or revoked access token", auth.ErrInvalidToken)
	}
	if err != nil {
		return nil, fmt.Errorf("verify token: %w", err)
	}
	if !s.ours(resource) {
		return nil, fmt.Errorf("%w: the token was issued for another resource", auth.ErrInvalidToken)
	}
	exp := time.Unix(expires, 0)
	if !s.opts.Now().Before(exp) {
		return nil, fmt.Errorf("%w: the access token expired", auth.ErrInvalidToken)
	}
	return &auth.TokenInfo{Scopes: strings.Fields(scope), Expiration: exp, UserID: clientID}, nil
}
