package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/connect"
)

// Command is one thing climated does, as its help shows it.
type Command struct {
	Name    string // "config check"
	Args    string // what follows the name on the usage line
	Summary string // one line: what it is for
}

// Commands lists every command, in the order the top-level help shows
// them; the usage lines of the help and of wrong use come from here.
var Commands = []Command{
	{"serve", "[--config FILE] [--listen HOST:PORT] [--db FILE] [--demo]", "run the hub: read the sensors, record them, serve MCP (the default command)"},
	{"scan", "[--bus N] [--zone NAME]", "probe the I²C bus and print configuration lines for the chips that answer"},
	{"read", "[--config FILE] [--bus N] [--zone NAME]", "one reading of every sensor, printed as JSON"},
	{"mcp", "[--config FILE] [--db FILE] | --remote URL [--token-file FILE]", "MCP on stdin/stdout: read-only beside serve, or a bridge to a hub's /mcp"},
	{"connect", "CLIENT [--remote URL] [--config FILE] [--name NAME] [--write]", "the configuration that connects an assistant (" + strings.Join(connect.IDs(), ", ") + ")"},
	{"doctor", "[--config FILE] [--db FILE] [--json]", "check the hub: I²C, sensors, GPIO, broker, database, clock, service, token, listen address, public URL"},
	{"backup", "[--config FILE] [--db FILE] BACKUP-FILE", "a consistent copy of the database, taken beside a running hub"},
	{"export", "[--config FILE] [--db FILE] [--zone Z] [--measurement M] [--from T] [--to T] [--format csv|json]", "raw readings as CSV or JSON on stdout"},
	{"import", "[--config FILE] [--db FILE] [--skip-bad] CSV-FILE | --from weewx [--zone PART=ZONE] [--dry-run] WEEWX-FILE", "readings in export's CSV, or a weewx archive, into the database (with the hub stopped)"},
	{"forget", "[--config FILE] [--db FILE] --after TIME|--ahead [--yes]", "delete the readings stamped after TIME from every tier (with the hub stopped; a dry run without --yes)"},
	{"alerts", "[--config FILE] [--db FILE] [--since T] [--limit N] [--json]", "the alert rules, the alerts that are on and the recent ones, beside a running hub"},
	{"clients", "[--config FILE] [--db FILE] [--json] [revoke CLIENT-ID]", "the assistants signed in with OAuth, or revoke one, beside a running hub"},
	{"station", "[--config FILE]", "the settings that make a weather station (Ecowitt, Ambient, Weather Underground protocol) upload to the hub"},
	{"token", "[--config FILE] [--db FILE]", "print the bearer token that clients beyond loopback need, creating it if needed"},
	{"config", "check [FILE] | example [--starter]", "check a configuration file, or print an annotated example"},
	{"config check", "[FILE]", "decode and validate FILE (default " + config.DefaultFile + ") and say what it sets up"},
	{"config example", "[--starter]", "print every key with its default and an explanation (--starter: the short file an install starts from)"},
	{"version", "", "print the version, commit, build date, Go version and platform"},
	{"help", "[COMMAND]", "this list, or a command's usage and flags"},
}

var (
	// ErrHelp: a command printed its help as asked; climated turns it
	// into success.
	ErrHelp = errors.New("help printed")
	// ErrUsage: a command was used wrongly, and said so with its usage
	// line; climated exits 2 without saying more.
	ErrUsage = errors.New("usage")
)

func lookupCommand(name string) (Command, bool) {
	for _, c := range Commands {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

// TopUsage is the top-level help: every command, one line each (the
// subcommands of config are in its own help).
func TopUsage() string {
	var b strings.Builder
	b.WriteString("usage: climated COMMAND [FLAGS] [ARGS]   (serve when no command is given)\n\ncommands:\n")
	for _, c := range Commands {
		if !strings.Contains(c.Name, " ") {
			fmt.Fprintf(&b, "  %-8s %s\n", c.Name, c.Summary)
		}
	}
	b.WriteString("\n\"climated help COMMAND\" or \"climated COMMAND --help\" shows a command's usage and flags.\n\"climated --version\" prints the version.\n")
	return b.String()
}

// UsageLine is "usage: climated NAME ARGS".
func UsageLine(name string) string {
	c, _ := lookupCommand(name)
	return strings.TrimSpace("usage: climated "+name+" "+c.Args) + "\n"
}

// WantsHelp: -h, -help or --help among the arguments (before a "--").
func WantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// PrintHelp prints a command's usage, summary and flags (fs may be nil).
func PrintHelp(w io.Writer, name string, fs *flag.FlagSet) error {
	c, _ := lookupCommand(name)
	fmt.Fprintf(w, "%s\n%s.\n", UsageLine(name), upperFirst(c.Summary))
	if name == "config" {
		fmt.Fprintln(w, "\nsubcommands:")
		for _, s := range Commands {
			if sub, ok := strings.CutPrefix(s.Name, "config "); ok {
				fmt.Fprintf(w, "  %-8s %s\n", sub, s.Summary)
			}
		}
	}
	if fs != nil && hasFlags(fs) {
		fmt.Fprintln(w, "\nflags:")
		out := fs.Output()
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(out)
	}
	return ErrHelp
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// NewFlagSet is a command's flag set: wrong use prints the usage line and
// the flags on stderr.
func NewFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), UsageLine(name))
		fs.PrintDefaults()
	}
	return fs
}

// ParseArgs parses a command's flags; a request for help prints it on
// stdout and returns ErrHelp.
func ParseArgs(fs *flag.FlagSet, args []string, stdout io.Writer) error {
	if WantsHelp(args) {
		return PrintHelp(stdout, fs.Name(), fs)
	}
	if err := fs.Parse(args); err != nil {
		return ErrUsage
	}
	return nil
}

// ParseFlags parses a command's flags, which take no other arguments.
func ParseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	if err := ParseArgs(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "climated %s: unexpected argument %q\n%s", fs.Name(), fs.Arg(0), UsageLine(fs.Name()))
		return ErrUsage
	}
	return nil
}
