package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/climated/climated/history"
	"github.com/climated/climated/mcp"
)

// runMCP serves the MCP surface on stdin and stdout from the database that
// climated serve writes, read-only beside it, so that a desktop client can
// run "ssh hub climated mcp". Nothing but protocol goes to stdout.
func runMCP(ctx context.Context, args []string, stdin io.Reader, stdout io.Writer, stderr io.Writer) error {
	cfg, err := newDataFlags("mcp", stderr).config(args, stderr)
	if err != nil {
		return err
	}
	loc, _ := cfg.location()
	log, err := newLogger(stderr, cfg.LogLevel)
	if err != nil {
		return err
	}
	store, err := history.OpenReadOnly(ctx, cfg.Database, &history.Options{Location: loc, Logger: log.With("component", "history")}, 0)
	if err != nil {
		return err
	}
	defer store.Close(context.Background())
	srv := mcp.New(store, &mcp.Options{
		Version:   buildVersion(),
		Zones:     store.Zones(),
		Simulated: simulated(store),
		Location:  loc,
		Logger:    log.With("component", "mcp"),
	})
	defer srv.Close()
	log.Info("serving MCP on stdio", "database", cfg.Database)
	err = srv.MCP().Run(ctx, mcp.Stdio(stdin, stdout))
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		return fmt.Errorf("mcp on stdio: %w", err)
	}
	return nil
}

// simulated: the database was filled by the demo house.
func simulated(s *history.Store) bool {
	for _, z := range s.Describe() {
		for _, src := range z.Sources {
			if strings.HasPrefix(src, "demo/") {
				return true
			}
		}
	}
	return false
}
