package configcmd

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/climated/climated/cmd/climated/internal/cli"
	"github.com/climated/climated/cmd/climated/internal/config"
)

// Run is `climated config check [FILE]` and `climated config example [--starter]`.
func Run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, cli.UsageLine("config"))
		return cli.ErrUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		return cli.PrintHelp(stdout, "config", nil)
	case "example":
		fs := cli.NewFlagSet("config example", stderr)
		starter := fs.Bool("starter", false, "print the short starter file instead")
		if err := cli.ParseFlags(fs, args[1:], stdout, stderr); err != nil {
			return err
		}
		if *starter {
			_, err := stdout.Write(config.Starter)
			return err
		}
		_, err := stdout.Write(config.Example)
		return err
	case "check":
		return check(args, stdout, stderr)
	}
	fmt.Fprintf(stderr, "climated config: unknown subcommand %q: want check or example\n%s", args[0], cli.UsageLine("config"))
	return cli.ErrUsage
}

// checkEnvLater lets config check pass a file whose password_env names a
// variable this shell lacks, recording its name: the file is what is
// checked, and the service has its own environment.
func checkEnvLater(unset *[]string) func(*config.Config) {
	return func(c *config.Config) {
		if c.MQTT == nil {
			return
		}
		c.MQTT.Options.LookupEnv = func(name string) (string, bool) {
			v, ok := os.LookupEnv(name)
			if !ok {
				*unset = append(*unset, name)
			}
			return v, true
		}
	}
}

// check is `climated config check [FILE]`: without FILE, the file every
// command finds (config.Find).
func check(args []string, stdout, stderr io.Writer) error {
	if cli.WantsHelp(args[1:]) {
		return cli.PrintHelp(stdout, "config check", nil)
	}
	if len(args) > 2 {
		fmt.Fprintf(stderr, "climated config check: one file at a time, not %q\n%s", args[2:], cli.UsageLine("config check"))
		return cli.ErrUsage
	}
	path := config.Find("", os.Getenv).Path
	if path == "" {
		path = config.UserConfig(os.Getenv)
	}
	if len(args) > 1 {
		path = args[1]
	}
	var unset []string
	cfg, err := config.Load(path, config.Default(), checkEnvLater(&unset))
	if len(args) == 1 && errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w\nclimated config check reads the file every command finds when given no FILE ($%s, %s, %s): name the file to check (climated config check ./climated.yaml), or write one there (climated config example > %s)",
			err, config.EnvConfig, config.UserConfig(os.Getenv), config.Installed.Config, path)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: ok (%s)\n", path, cfg.Summary())
	for _, name := range unset {
		fmt.Fprintf(stdout, "note: %s (mqtt.password_env) is not set here; the hub needs it in its environment (the service's: /etc/climated/environment)\n", name)
	}
	return nil
}
