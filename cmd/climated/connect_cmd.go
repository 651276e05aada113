package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/climated/climated/cmd/climated/internal/cli"
	"github.com/climated/climated/cmd/climated/internal/connect"
)

// runConnect is `climated connect CLIENT`: the configuration that makes
// CLIENT use this hub, printed, or merged into the client's own file with
// --write. The values come from the hub's configuration (--config, else
// the installed one), so they are right on an installed hub. Without a
// client nor --remote, the hubs it finds on the LAN.
func runConnect(args []string, stdout, stderr io.Writer) error {
	d := cli.NewDataFlags("connect", stdout, stderr)
	remote := d.FS.String("remote", "", "the hub's Streamable HTTP `URL` (http://hub.local:8473/mcp); without it, this machine's hub: on loopback when it answers there, else climated mcp")
	name := d.FS.String("name", "climated", "the server's `NAME` in the client's configuration")
	write := d.FS.Bool("write", false, "merge it into the client's file (a backup is made first)")
	// The client may come before or after the flags.
	var id string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		id, args = args[0], args[1:]
	}
	cfg, err := d.ConfigUnlessRemote(remote, args, stderr)
	if err != nil {
		return err
	}
	if id == "" && d.FS.NArg() == 0 && *remote == "" {
		// No client: which there are, and the hubs on the LAN to use
		// with --remote.
		d.FS.Usage()
		connect.ListHubs(context.Background(), stdout)
		return nil
	}
	if id == "" && d.FS.NArg() == 1 {
		id = d.FS.Arg(0)
	} else if d.FS.NArg() > 0 || id == "" {
		d.FS.Usage()
		return cli.ErrUsage
	}
	c, ok := connect.ByID(id)
	if !ok {
		return fmt.Errorf("unknown client %q: want one of %s", id, strings.Join(connect.IDs(), ", "))
	}
	// climated mcp, started by the assistant, finds the user's and the
	// installed configuration by itself; a file given by --config or
	// $CLIMATED_CONFIG (which the assistant does not see) must be named.
	named := ""
	if f := d.Found(); f.Explicit {
		named = f.Path
	}
	t, err := connect.NewTarget(cfg, named, *remote, *name)
	if err != nil {
		return err
	}
	if *write {
		return connect.WriteFile(c, t, stdout)
	}
	return c.Recipe(stdout, t)
}
