package clientscmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/climated/climated/cmd/climated/internal/cli"
	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// Run is `climated clients [revoke ID]`. A revocation is logged once at
// INFO on stderr, as the hub logs a grant.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	d := cli.NewDataFlags("clients", stdout, stderr)
	asJSON := d.FS.Bool("json", false, "print JSON")
	cfg, err := d.Config(args, stderr)
	if err != nil {
		return err
	}
	rest := d.FS.Args()
	if !(len(rest) == 0 || len(rest) == 2 && rest[0] == "revoke") {
		fmt.Fprint(stderr, cli.UsageLine("clients"))
		return cli.ErrUsage
	}
	if _, err := os.Stat(cfg.Database); err != nil {
		return fmt.Errorf("database %s: %w", cfg.Database, err)
	}
	reg, err := oauth.OpenRegistry(ctx, cfg.Database, slog.New(slog.NewTextHandler(stderr, nil)))
	if errors.Is(err, oauth.ErrNoSchema) {
		return fmt.Errorf("%s has no OAuth tables yet: start climated serve once", cfg.Database)
	}
	if err != nil {
		return err
	}
	defer reg.Close()
	if len(rest) == 2 {
		if err := reg.Revoke(ctx, rest[1]); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Revoked %s: its tokens no longer work.\n", rest[1])
		return nil
	}
	list, err := reg.Clients(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(list)
	}
	print(stdout, list)
	return nil
}

// print is the list as a table, or a sentence when it is empty.
func print(w io.Writer, list []oauth.ClientInfo) {
	if len(list) == 0 {
		fmt.Fprintln(w, "No assistant has signed in with OAuth (set public_url: docs/oauth.md).")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tCLIENT ID\tSCOPES\tSIGNED IN\tLAST USED")
	for _, c := range list {
		used := "never"
		if !c.LastUsed.IsZero() {
			used = c.LastUsed.Local().Format(time.DateTime)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", c.Name, c.ID, strings.Join(c.Scopes, " "), c.Grants, used)
	}
	tw.Flush()
}
