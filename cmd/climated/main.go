package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	_ "time/tzdata" // a hub image may lack /usr/share/zoneinfo

	"github.com/climated/climated/cmd/climated/internal/cli"
	"github.com/climated/climated/cmd/climated/internal/clientscmd"
	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/configcmd"
	"github.com/climated/climated/cmd/climated/internal/datacmd"
	"github.com/climated/climated/cmd/climated/internal/doctor"
	"github.com/climated/climated/cmd/climated/internal/hwcmd"
	"github.com/climated/climated/cmd/climated/internal/mcpcmd"
	"github.com/climated/climated/cmd/climated/internal/stationcmd"
	"github.com/climated/climated/cmd/climated/internal/token"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, cli.ErrUsage) {
			fmt.Fprintln(os.Stderr, "climated:", err)
		}
		if errors.Is(err, doctor.ErrUnhealthy) {
			os.Exit(1) // the doctor found something: not a wrong use
		}
		os.Exit(2)
	}
}

// run dispatches a subcommand; "serve" is the default. A command's help,
// asked for in any of the usual ways, is success.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if err := dispatch(ctx, args, stdout, stderr); !errors.Is(err, cli.ErrHelp) {
		return err
	}
	return nil
}

// plainCommands are the commands that need neither a context nor more
// than their arguments and output.
var plainCommands = map[string]func(args []string, stdout, stderr io.Writer) error{
	"config":  configcmd.Run,
	"token":   token.Command,
	"station": stationcmd.Run,
	"connect": runConnect,
}

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cmd := "serve"
	// "climated --help" is the list of commands, not serve's flags.
	if len(args) > 0 && (!strings.HasPrefix(args[0], "-") || isHelpOrVersion(args[0])) {
		cmd, args = args[0], args[1:]
	}
	if run, ok := plainCommands[cmd]; ok {
		return run(args, stdout, stderr)
	}
	switch cmd {
	case "serve":
		cfg, err := parseServe(args, stdout, stderr)
		if err != nil {
			return err
		}
		level := new(slog.LevelVar)
		log, err := newLogger(stderr, cfg.LogLevel, level)
		if err != nil {
			return err
		}
		// SIGHUP reloads the configuration (systemctl reload climated).
		hup := make(chan os.Signal, 1)
		signal.Notify(hup, syscall.SIGHUP)
		defer signal.Stop(hup)
		reload := make(chan struct{}, 1)
		go forward(ctx, hup, reload)
		load := func() (config.Config, error) { return parseServe(args, io.Discard, io.Discard) }
		return serve(ctx, cfg, log, serveEnv{reload: reload, load: load, level: level, stderr: stderr})
	case "backup":
		return datacmd.Backup(ctx, args, stdout, stderr)
	case "export":
		return datacmd.Export(ctx, args, stdout, stderr)
	case "import":
		return datacmd.Import(ctx, args, stdout, stderr)
	case "forget":
		return datacmd.Forget(ctx, args, stdout, stderr)
	case "alerts":
		return datacmd.Alerts(ctx, args, stdout, stderr)
	case "clients":
		return clientscmd.Run(ctx, args, stdout, stderr)
	case "scan":
		return hwcmd.Scan(ctx, args, stdout, stderr)
	case "read":
		return hwcmd.Read(ctx, args, stdout, stderr)
	case "mcp":
		return mcpcmd.Run(ctx, args, mcpcmd.Deps{Stdin: os.Stdin, Stdout: stdout, Stderr: stderr, NewLogger: processLogger, Version: buildVersion()})
	case "doctor":
		return doctor.Command(ctx, args, stdout, stderr)
	case "version", "--version", "-version":
		return runVersion(args, stdout)
	case "help", "-h", "--help", "-help":
		return runHelp(ctx, args, stdout, stderr)
	default:
		fmt.Fprintf(stderr, "climated: unknown command %q\n%s", cmd, cli.TopUsage())
		return cli.ErrUsage
	}
}

// runVersion is `climated version`.
func runVersion(args []string, stdout io.Writer) error {
	if cli.WantsHelp(args) {
		return cli.PrintHelp(stdout, "version", nil)
	}
	printVersion(stdout)
	return nil
}

func isHelpOrVersion(arg string) bool {
	switch arg {
	case "-h", "-help", "--help", "--version", "-version":
		return true
	}
	return false
}

// runHelp is "climated help [COMMAND]": the list of commands, or the
// command's own --help.
func runHelp(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stdout, cli.TopUsage())
		return nil
	}
	if cli.WantsHelp(args) || args[0] == "help" {
		return cli.PrintHelp(stdout, "help", nil)
	}
	return dispatch(ctx, append(append([]string{}, args...), "--help"), stdout, stderr)
}

// forward turns signals into requests on a channel that holds one: two
// SIGHUPs during a reload ask for one more, not two.
func forward(ctx context.Context, sig <-chan os.Signal, to chan<- struct{}) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-sig:
			select {
			case to <- struct{}{}:
			default:
			}
		}
	}
}

// processLogger is newLogger at a level that no reload changes.
func processLogger(w io.Writer, level string) (*slog.Logger, error) { return newLogger(w, level, nil) }

// newLogger builds the one log handler of the process: key=value text on
// stderr. Under systemd (JOURNAL_STREAM is set) the time is left out, as
// the journal stamps every line itself.
// A non-nil lv is set to level and becomes the handler's level, so that
// it can change later (a reload).
func newLogger(w io.Writer, level string, lv *slog.LevelVar) (*slog.Logger, error) {
	l, err := config.ParseLevel(level)
	if err != nil {
		return nil, err
	}
	opts := &slog.HandlerOptions{Level: l}
	if lv != nil {
		lv.Set(l)
		opts.Level = lv
	}
	if os.Getenv("JOURNAL_STREAM") != "" {
		opts.ReplaceAttr = func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}
	}
	return slog.New(slog.NewTextHandler(w, opts)), nil
}
