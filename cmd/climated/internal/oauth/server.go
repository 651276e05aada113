package oauth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/climated/climated/history"
)

// Server is the authorization server: the metadata, the consent page,
// /register and /token.
type Server struct {
	opts     Options
	db       *sql.DB
	register *perSource
	cimd     *cimd
}

// ErrNoSchema says the file is not a history yet: history.Open makes it
// first.
var ErrNoSchema = errors.New("the database has no OAuth tables: climated serve (the history) must create the file first")

// Open opens the OAuth tables of the history database at path, and
// brings them up to date.
func Open(ctx context.Context, path string, opts Options) (*Server, error) {
	if err := opts.fill(); err != nil {
		return nil, err
	}
	db, err := openDB(ctx, path)
	if err != nil {
		return nil, err
	}
	return &Server{opts: opts, db: db, register: newPerSource(opts.RegisterRate, opts.RegisterBurst, opts.Now), cimd: newCIMD(&opts)}, nil
}

// openDB opens the OAuth tables with a connection of their own.
func openDB(ctx context.Context, path string) (*sql.DB, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open oauth %s: %w", path, err)
	}
	if err := history.FileMade(abs); err != nil {
		return nil, fmt.Errorf("open oauth %s: %w (%w)", path, ErrNoSchema, err)
	}
	q := url.Values{"_busy_timeout": {"5000"}, "_journal_mode": {"wal"}, "_synchronous": {"normal"}, "_txlock": {"immediate"}}
	u := url.URL{Scheme: "file", Path: abs, RawQuery: q.Encode()}
	db, err := history.OpenSQLite(u.String())
	if err != nil {
		return nil, fmt.Errorf("open oauth %s: %w", path, err)
	}
	// One connection: every redemption and rotation is a read and a write
	// that must not interleave with another's.
	db.SetMaxOpenConns(1)
	if err := history.Migrate(ctx, db, Schema); err != nil {
		db.Close()
		if errors.Is(err, history.ErrNoHistory) {
			err = fmt.Errorf("%w (%w)", ErrNoSchema, err)
		}
		return nil, fmt.Errorf("open oauth %s: %w", path, err)
	}
	return db, nil
}

// Close closes the connection.
func (s *Server) Close() error { return s.db.Close() }

// Paths of the endpoints, beneath the issuer.
const (
	PathAuthorize       = "/authorize"
	PathToken           = "/token"
	PathRegister        = "/register"
	PathASMetadata      = "/.well-known/oauth-authorization-server"
	PathResourceMetaDir = "/.well-known/oauth-protected-resource"
)

// ResourceMetadataURL is where the protected-resource metadata of the
// resource is served (RFC 9728 §3.1: the well-known path, then the
// resource's own path): the URL a 401 names in resource_metadata.
func (s *Server) ResourceMetadataURL() string {
	return s.metadataURL(s.opts.Resource)
}

// ResourceMetadataURLFor is ResourceMetadataURL for the endpoint at path
// (/sse): its own resource metadata when it is one of Options.Resources,
// else the MCP endpoint's. A client checks that the resource there is the
// URL it was given (the TypeScript SDK, Home Assistant), so /sse's 401
// must not name /mcp's.
func (s *Server) ResourceMetadataURLFor(path string) string {
	for _, r := range s.opts.Resources {
		if u, err := url.Parse(r); err == nil && u.Path == path {
			return s.metadataURL(r)
		}
	}
	return s.ResourceMetadataURL()
}

func (s *Server) metadataURL(resource string) string {
	u, _ := url.Parse(resource)
	return strings.TrimSuffix(s.opts.Issuer, "/") + PathResourceMetaDir + u.EscapedPath()
}

// resources are every resource the hub's tokens may be bound to.
func (s *Server) resources() []string {
	return append([]string{s.opts.Resource}, s.opts.Resources...)
}

// Handler serves the metadata documents, the consent page (/authorize),
// /register and /token. The front
// mounts it at the issuer's root.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle(PathResourceMetaDir, s.resourceMetadata(s.opts.Resource))
	for _, r := range s.resources() {
		if p := s.metadataURL(r); p != s.metadataURL(s.opts.Issuer) {
			mux.Handle(strings.TrimPrefix(p, s.opts.Issuer), s.resourceMetadata(r))
		}
	}
	mux.Handle(PathASMetadata, s.asMetadata())
	mux.HandleFunc(PathAuthorize, s.serveAuthorize)
	mux.Handle(PathToken, postCORS(s.serveToken))
	mux.Handle(PathRegister, postCORS(s.serveRegister))
	mux.Handle(PathRegister+"/", getCORS(s.serveClientInfo))
	return mux
}

// MountPaths are the paths Handler serves, for a mux in front of it: the
// metadata documents, the endpoints, and the registrations beneath
// PathRegister+"/" (registration_client_uri).
func (s *Server) MountPaths() []string {
	paths := []string{PathASMetadata, PathResourceMetaDir, PathAuthorize, PathToken, PathRegister, PathRegister + "/"}
	for _, r := range s.resources() {
		if p := strings.TrimPrefix(s.metadataURL(r), s.opts.Issuer); p != PathResourceMetaDir {
			paths = append(paths, p)
		}
	}
	return paths
}

// ours reports whether a token bound to resource opens the hub: any of
// its endpoints (Options.Resources).
func (s *Server) ours(resource string) bool {
	return slices.Contains(s.resources(), resource)
}
