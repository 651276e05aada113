package hwcmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/climated/climated/cmd/climated/internal/cli"
	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/hw"
)

// Read is `climated read [--config FILE] [--bus N] [--zone NAME]`: one
// reading of every configured sensor, printed as the nested structure
// (zone → measurement → value, and When). Without a configuration it reads
// what a scan of the bus finds, as the hub's default does. Faults go to
// stderr, one per sensor, and make the exit status non-zero.
func Read(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("read", stderr)
	configPath := fs.String("config", "", "YAML configuration `FILE`")
	bus := fs.String("bus", hw.DefaultBus, "I²C bus `N` to scan when there is no configuration")
	zone := fs.String("zone", hw.DefaultZone, "zone `NAME` of the chips a scan finds")
	if err := cli.ParseFlags(fs, args, stdout, stderr); err != nil {
		return err
	}
	var cfg hw.Config
	if *configPath != "" {
		full, err := config.Load(*configPath, config.Default(), nil)
		if err != nil {
			return err
		}
		cfg = full.HW
	} else {
		found, err := hw.ScanBus(ctx, nil, *bus)
		if err != nil {
			return fmt.Errorf("read: %w", err)
		}
		cfg = hw.ScanConfig(found, *zone)
	}
	src, err := hw.New(cfg, &hw.Options{Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		return fmt.Errorf("read: %w", err)
	}
	rs, readErr := src.ReadOnce(ctx)
	if err := printNested(stdout, rs); err != nil {
		return err
	}
	if readErr != nil {
		for _, e := range unjoin(readErr) {
			fmt.Fprintln(stderr, "climated read:", e)
		}
		return errors.New("read: some sensors failed")
	}
	return nil
}

// printNested prints readings as the get_climate structure (package
// climate): zone → measurement → value, with When, the time of the zone's
// latest reading in Unix seconds, and what one reading derives.
func printNested(w io.Writer, rs []sensors.Reading) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(climate.Readings(rs, time.Local).Climate)
}

// unjoin splits an errors.Join into its errors.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
