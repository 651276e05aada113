package cli

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/climated/climated/cmd/climated/internal/config"
)

// DataFlags are the flags every data command takes to find the database.
type DataFlags struct {
	FS         *flag.FlagSet
	stdout     io.Writer // where --help goes
	ConfigPath *string
	db         *string
	found      *config.Found // set by Config
	// Broker: the command connects to the MQTT broker (doctor), so the
	// password's environment variable must be set; the others do not, and
	// run where the service's environment is not.
	Broker bool
}

// NewDataFlags are the flag set of the data command name, with --config
// and --db.
func NewDataFlags(name string, stdout, stderr io.Writer) DataFlags {
	fs := NewFlagSet(name, stderr)
	return DataFlags{FS: fs, stdout: stdout, ConfigPath: fs.String("config", "", "YAML configuration `FILE` (default: $CLIMATED_CONFIG, ~/.config/climated/climated.yaml, "+config.Installed.Config+", the first found)"),
		db: fs.String("db", "", "SQLite database `FILE`"), found: new(config.Found)}
}

// Config parses args and returns the configuration they name: the file
// config.Find finds (--config, $CLIMATED_CONFIG, the user's, the
// installed hub's), so that every command reads the file the hub reads.
func (d DataFlags) Config(args []string, stderr io.Writer) (config.Config, error) {
	cfg := config.Default()
	if err := ParseArgs(d.FS, args, d.stdout); err != nil {
		return cfg, err
	}
	*d.found = config.Find(*d.ConfigPath, os.Getenv)
	path := d.found.Path
	if path != "" && config.Installed.IsInstalledConfig(path) && os.Getenv("STATE_DIRECTORY") == "" {
		// The service finds its database in its StateDirectory.
		cfg.Database = filepath.Join(config.Installed.State, "climated.db")
	}
	cfg, err := config.Load(path, cfg, d.override)
	if err != nil && path != "" {
		return cfg, config.ExplainAccess(path, strings.TrimSpace("climated "+d.FS.Name()+" "+strings.Join(args, " ")), err)
	}
	cfg.From = *d.found
	return cfg, err
}

// Found is where Config found the configuration.
func (d DataFlags) Found() config.Found { return *d.found }

// override puts the flags over the file.
func (d DataFlags) override(c *config.Config) {
	if *d.db != "" {
		c.Database = *d.db
	}
	if c.MQTT != nil && !d.Broker {
		c.MQTT.Options.LookupEnv = func(string) (string, bool) { return "", true }
	}
}

// ConfigUnlessRemote is d.Config, except that with --remote and no
// --config (or $CLIMATED_CONFIG) the configuration found is optional: a bridge to a hub
// needs nothing of this machine's hub, and a user on the hub may not read
// its file (/etc/climated is root:climated 0750). The README's recipe for
// an assistant on the hub is climated mcp --remote http://127.0.0.1:8473/mcp.
func (d DataFlags) ConfigUnlessRemote(remote *string, args []string, stderr io.Writer) (config.Config, error) {
	if err := ParseArgs(d.FS, args, d.stdout); err != nil {
		return config.Default(), err
	}
	cfg, err := d.Config(args, stderr)
	if err != nil && *remote != "" && !d.found.Explicit {
		return config.Default(), nil
	}
	return cfg, err
}
