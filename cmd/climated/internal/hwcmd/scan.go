package hwcmd

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/climated/climated/cmd/climated/internal/cli"
	"github.com/climated/climated/sensors/hw"
)

// Scan is `climated scan [--bus N] [--zone NAME]`: it probes the known
// chip addresses of an I²C bus, says what answers, and prints the
// configuration lines that read those chips.
func Scan(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("scan", stderr)
	bus := fs.String("bus", hw.DefaultBus, "I²C bus `N` (/dev/i2c-N)")
	zone := fs.String("zone", hw.DefaultZone, "zone `NAME` for the configuration lines")
	if err := cli.ParseFlags(fs, args, stdout, stderr); err != nil {
		return err
	}
	found, err := hw.ScanBus(ctx, nil, *bus)
	if err != nil {
		return fmt.Errorf("scan: %w", err)
	}
	if len(found) == 0 {
		fmt.Fprintf(stdout, "# no known chip answers on /dev/i2c-%s\n", strings.TrimPrefix(*bus, "/dev/i2c-"))
		return nil
	}
	fmt.Fprintf(stdout, "# found on I²C bus %s:\n", *bus)
	for _, f := range found {
		fmt.Fprintf(stdout, "#   %s\n", f)
	}
	fmt.Fprintln(stdout, "# configuration lines:")
	for _, l := range hw.ConfigLines(found, *zone) {
		fmt.Fprintln(stdout, l)
	}
	return nil
}
