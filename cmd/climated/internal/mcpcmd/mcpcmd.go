package mcpcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/climated/climated/cmd/climated/internal/bridge"
	"github.com/climated/climated/cmd/climated/internal/cli"
	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/stdio"
	"github.com/climated/climated/history"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/mcp"
	"github.com/climated/climated/mcp/transport"
	"github.com/climated/climated/sensors"
)

// Deps are what climated mcp needs of the process.
type Deps struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// NewLogger is the process's log handler on w at level.
	NewLogger func(w io.Writer, level string) (*slog.Logger, error)
	Version   string // the hub's version, as the server names itself
}

// Run serves the MCP surface on stdin and stdout from the database that
// climated serve writes, read-only beside it, so that a desktop client can
// run "ssh hub climated mcp". Nothing but protocol goes to stdout. With
// --remote it is instead a bridge to a hub's Streamable HTTP endpoint.
func Run(ctx context.Context, args []string, d Deps) error {
	stdin, stdout, stderr := d.Stdin, d.Stdout, d.Stderr
	f := cli.NewDataFlags("mcp", stdout, stderr)
	remote := f.FS.String("remote", "", "bridge stdio to the hub at this Streamable HTTP `URL` (http://hub.local:8473/mcp)")
	tokenFile := f.FS.String("token-file", "", "with --remote: read the bearer token from `FILE` (else $"+bridge.TokenEnv+", else "+bridge.UserTokenFile()+")")
	cfg, err := f.ConfigUnlessRemote(remote, args, stderr)
	if err != nil {
		return err
	}
	log, err := d.NewLogger(stderr, cfg.LogLevel)
	if err != nil {
		return err
	}
	if *remote != "" {
		return bridge.Run(ctx, bridge.Options{URL: *remote, TokenFile: *tokenFile, Log: log.With("component", "bridge")}, stdin, stdout)
	}
	if *tokenFile != "" {
		return fmt.Errorf("--token-file is for --remote: a local climated mcp reads the database directly")
	}
	loc, _ := cfg.Location()
	if err := config.CheckReadable(cfg.Database, strings.TrimSpace("climated mcp "+strings.Join(args, " "))); err != nil {
		return fmt.Errorf("open history %s: %w", cfg.Database, err)
	}
	store, err := hub.OpenReadOnly(ctx, cfg.Database, &history.Options{Location: loc, Logger: log.With("component", "history"), Outdoors: cfg.Outdoors()}, 0)
	if err != nil {
		return err
	}
	defer store.Close(context.Background())
	al := openStdioAlerts(ctx, cfg.Database, cfg.Alerts.House, log.With("component", "alerts"))
	defer al.close()
	srv := mcp.New(ctx, store, &mcp.Options{
		Version:   d.Version,
		Zones:     store.Zones(),
		Simulated: simulated(store),
		Location:  loc,
		Alerts:    al.alerts(),
		Logger:    log.With("component", "mcp"),
	})
	defer srv.Close()
	defer al.follow(ctx, srv, alertFollowEvery)()
	log.Info("serving MCP on stdio", "database", cfg.Database, "config", cfg.File, "timezone", loc.String())
	// Lines that are not JSON-RPC are answered by the filter (the SDK's
	// decoder cannot carry on after them); transport.Stdio keeps the ids of the
	// rest byte for byte. Both write whole lines through out.
	out := &stdio.LockedWriter{W: stdout}
	err = srv.MCP().Run(ctx, transport.Stdio(stdio.NewFilter(stdin, out, log), out))
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		return fmt.Errorf("mcp on stdio: %w", err)
	}
	return nil
}

// simulated: the database was filled by the demo house.
func simulated(s *hub.Hub) bool {
	for _, z := range s.Describe() {
		for _, src := range z.Sources {
			if sensors.Simulated(src) {
				return true
			}
		}
	}
	return false
}
