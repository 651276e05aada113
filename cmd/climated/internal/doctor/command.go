package doctor

import (
	"context"
	"fmt"
	"io"

	"github.com/climated/climated/cmd/climated/internal/cli"
)

// Command is `climated doctor [--json]`.
func Command(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	d := cli.NewDataFlags("doctor", stdout, stderr)
	d.Broker = true
	asJSON := d.FS.Bool("json", false, "print the findings as JSON, for scripts")
	cfg, err := d.Config(args, stderr)
	if err != nil {
		return err
	}
	if d.FS.NArg() > 0 {
		fmt.Fprintf(stderr, "climated doctor: unexpected argument %q\n%s", d.FS.Arg(0), cli.UsageLine("doctor"))
		return cli.ErrUsage
	}
	return Run(ctx, cfg, Env{}, *asJSON, stdout)
}
