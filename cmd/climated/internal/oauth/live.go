package oauth

import (
	"context"
	"errors"
	"fmt"
)

// TokenLive is nil while the access token opens the hub (Verify), for the
// MCP server's watch of the streams opened with it (mcp.Grants).
func (s *Server) TokenLive(ctx context.Context, token string) error {
	_, err := s.Verify(ctx, token, nil)
	return err
}

// ErrClientRevoked says a client holds no grant any more.
var ErrClientRevoked = errors.New("the client holds no grant: revoked, or every sign-in of it ended")

// ClientLive is nil while the client is registered and holds a grant whose
// refresh token has not expired, for the MCP server's watch of the
// sessions its tokens opened (mcp.Grants).
func (s *Server) ClientLive(ctx context.Context, clientID string) error {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
		WHERE g.client_id = ? AND g.family IN (SELECT family FROM oauth_tokens WHERE refresh_expires > ?)`, clientID, s.opts.Now().Unix()).Scan(&n)
	if err != nil {
		return fmt.Errorf("read grants: %w", err)
	}
	if n == 0 {
		return ErrClientRevoked
	}
	return nil
}
