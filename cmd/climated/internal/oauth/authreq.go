package oauth

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// AuthRequest is an authorization request the hub has checked: what the
// consent page shows and, once the owner approves, what IssueCode binds
// into the code.
type AuthRequest struct {
	Client        *Client
	RedirectURI   string
	State         string
	CodeChallenge string
	Resource      string
	Scopes        []string // what the code grants: the client's ask, then the owner's choice
	Ignored       []string // scopes asked for that the hub does not have
}

// AuthError is a refused authorization request. When Redirect is false
// the client or its redirect URI cannot be trusted, and the consent page
// must show the error itself rather than send the browser anywhere
// (RFC 6749 §4.1.2.1).
type AuthError struct {
	Redirect bool
	oauthError
}

// CheckAuthRequest checks the query of an /authorize request: a
// registered client, its redirect URI exactly as registered, response_type
// code, PKCE S256, the hub's own resource (or none, which means it) and
// known scopes. source is who asks (a client document is fetched on
// their budget).
func (s *Server) CheckAuthRequest(ctx context.Context, source string, q url.Values) (*AuthRequest, error) {
	c, err := s.anyClient(ctx, source, q.Get("client_id"))
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, &AuthError{false, *invalidRequest(fmt.Sprintf("client_id %q is not registered with this hub", q.Get("client_id")))}
	}
	uri := q.Get("redirect_uri")
	if !slices.Contains(c.RedirectURIs, uri) {
		return nil, &AuthError{false, *invalidRequest(fmt.Sprintf("redirect_uri %q is not one the client registered", uri))}
	}
	if err := checkRedirectURI(uri); err != nil { // one kept from before the rules it now meets
		return nil, &AuthError{false, *invalidRequest(err.Error())}
	}
	ar := &AuthRequest{Client: c, RedirectURI: uri, State: q.Get("state"), CodeChallenge: q.Get("code_challenge"), Resource: q.Get("resource")}
	if e := s.checkAuthParams(q, ar); e != nil {
		return nil, &AuthError{true, *e}
	}
	return ar, nil
}

// anyClient is a registered client or, for an https client_id, the one
// its Client ID Metadata Document describes; nil when there is neither.
func (s *Server) anyClient(ctx context.Context, source, id string) (*Client, error) {
	if !isCIMD(id) {
		return s.client(ctx, id)
	}
	c, err := s.cimd.get(ctx, source, id)
	if err != nil {
		return nil, &AuthError{false, *invalidRequest(err.Error())}
	}
	return c, nil
}

// checkAuthParams checks what is answered at the client's redirect URI.
func (s *Server) checkAuthParams(q url.Values, ar *AuthRequest) *oauthError {
	if rt := q.Get("response_type"); rt != "code" {
		return &oauthError{http.StatusBadRequest, "unsupported_response_type", fmt.Sprintf("response_type %q: the hub answers code only", rt)}
	}
	if ar.CodeChallenge == "" {
		return invalidRequest("code_challenge is missing: the hub requires PKCE with S256")
	}
	if m := q.Get("code_challenge_method"); m != "S256" {
		return invalidRequest(fmt.Sprintf("code_challenge_method %q: the hub accepts S256 only", m))
	}
	if len(ar.CodeChallenge) != 43 {
		return invalidRequest("code_challenge is not a base64url SHA-256 (43 characters)")
	}
	if ar.Resource == "" {
		// The hub serves one resource, so a sign-in that names none can
		// only mean it, and is bound to it like one that does. The MCP
		// specification says clients MUST send resource; Home Assistant's
		// does not (homeassistant/helpers/config_entry_oauth2_flow.py),
		// and would otherwise never sign in (TestHomeAssistantSignsIn).
		ar.Resource = s.opts.Resource
	}
	if e := s.checkResource(ar.Resource, true); e != nil {
		return e
	}
	ar.Scopes, ar.Ignored = parseScope(q.Get("scope"))
	return nil
}

// checkResource accepts one of the hub's resources (RFC 8707); an empty
// one only where required is false.
func (s *Server) checkResource(r string, required bool) *oauthError {
	switch {
	case r == "" && required:
		return invalidTarget("resource is missing: name the MCP endpoint, " + s.opts.Resource)
	case r != "" && !slices.Contains(s.resources(), r):
		return invalidTarget(fmt.Sprintf("resource %q is not this hub's: use %s", r, strings.Join(s.resources(), " or ")))
	}
	return nil
}
