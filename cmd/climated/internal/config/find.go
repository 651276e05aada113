package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// EnvConfig names the configuration file when no --config does.
const EnvConfig = "CLIMATED_CONFIG"

// Found is where the configuration came from: the file, and how it was
// found, in words for the log and for messages.
type Found struct {
	Path string // "" when no file was found: the defaults
	// By is how: "--config", "$CLIMATED_CONFIG", "the user's
	// configuration" or "the installed hub's configuration"; "" when no
	// file was found.
	By string
	// Looked are the files looked for, when none was found.
	Looked []string
	// Explicit: given by --config or $CLIMATED_CONFIG, which an assistant
	// that starts climated itself does not see, so its entry must name it.
	Explicit bool
}

// UserConfig is the user's configuration file: $XDG_CONFIG_HOME (by
// default ~/.config) /climated/climated.yaml; "" without a home.
func UserConfig(getenv func(string) string) string {
	dir := getenv("XDG_CONFIG_HOME")
	if dir == "" || !filepath.IsAbs(dir) { // the XDG spec: a relative path is invalid
		home := getenv("HOME")
		if home == "" {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "climated", "climated.yaml")
}

// Find is the configuration file every command reads, the first of:
// flag (--config), $CLIMATED_CONFIG, the user's file (UserConfig), the
// installed hub's (Installed.Config). The first two are taken as given,
// so that a file named but missing is an error, not the defaults; the
// others when they exist. A file there that this user may not read (the
// installed one is root:climated 0750) counts as found: reading it then
// fails with advice on access, rather than the command falling back to a
// database of the user's own.
func Find(flag string, getenv func(string) string) Found {
	if flag != "" {
		return Found{Path: flag, By: "--config", Explicit: true}
	}
	if env := getenv(EnvConfig); env != "" {
		return Found{Path: env, By: "$" + EnvConfig, Explicit: true}
	}
	user := UserConfig(getenv)
	if exists(user) {
		return Found{Path: user, By: "the user's configuration"}
	}
	if exists(Installed.Config) {
		return Found{Path: Installed.Config, By: "the installed hub's configuration"}
	}
	looked := []string{Installed.Config}
	if user != "" {
		looked = []string{user, Installed.Config}
	}
	return Found{Looked: looked}
}

func exists(path string) bool {
	if path == "" {
		return false
	}
	_, err := os.Lstat(path)
	return err == nil || errors.Is(err, fs.ErrPermission)
}
