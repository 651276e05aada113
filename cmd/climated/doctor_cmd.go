package main

import (
	"context"
	"fmt"
	"io"

	"github.com/climated/climated/cmd/climated/internal/doctor"
)

// runDoctor is `climated doctor [--json]`.
func runDoctor(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	d := newDataFlags("doctor", stdout, stderr)
	d.broker = true
	asJSON := d.fs.Bool("json", false, "print the findings as JSON, for scripts")
	cfg, err := d.config(args, stderr)
	if err != nil {
		return err
	}
	if d.fs.NArg() > 0 {
		fmt.Fprintf(stderr, "climated doctor: unexpected argument %q\n%s", d.fs.Arg(0), usageLine("doctor"))
		return errUsage
	}
	return doctor.Run(ctx, cfg, doctor.Env{}, *asJSON, stdout)
}
