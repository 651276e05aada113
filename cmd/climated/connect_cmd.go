package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/climated/climated/cmd/climated/internal/connect"
)

// runConnect is `climated connect CLIENT`: the configuration that makes
// CLIENT use this hub, printed, or merged into the client's own file with
// --write. The values come from the hub's configuration (--config, else
// the installed one), so they are right on an installed hub.
func runConnect(args []string, stdout, stderr io.Writer) error {
	d := newDataFlags("connect", stdout, stderr)
	remote := d.fs.String("remote", "", "the hub's Streamable HTTP `URL` (http://hub.local:8473/mcp); without it, this machine's hub: on loopback when it answers there, else climated mcp")
	name := d.fs.String("name", "climated", "the server's `NAME` in the client's configuration")
	write := d.fs.Bool("write", false, "merge it into the client's file (a backup is made first)")
	// The client may come before or after the flags.
	var id string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		id, args = args[0], args[1:]
	}
	cfg, err := configUnlessRemote(d, remote, args, stderr)
	if err != nil {
		return err
	}
	if id == "" && d.fs.NArg() == 1 {
		id = d.fs.Arg(0)
	} else if d.fs.NArg() > 0 || id == "" {
		d.fs.Usage()
		return errUsage
	}
	c, ok := connect.ByID(id)
	if !ok {
		return fmt.Errorf("unknown client %q: want one of %s", id, strings.Join(connect.IDs(), ", "))
	}
	t, err := connect.NewTarget(cfg, *d.configPath, *remote, *name)
	if err != nil {
		return err
	}
	if *write {
		return connect.WriteFile(c, t, stdout)
	}
	return c.Recipe(stdout, t)
}
