package config

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFind: --config, then $CLIMATED_CONFIG, then the user's file, then
// the installed hub's; the first two as given (a missing file is the
// caller's error), the others only when they exist.
func TestFind(t *testing.T) {
	home, xdg, etc := t.TempDir(), t.TempDir(), t.TempDir()
	saved := Installed
	t.Cleanup(func() { Installed = saved })
	Installed.Config = filepath.Join(etc, "climated.yaml")
	env := map[string]string{"HOME": home}
	getenv := func(k string) string { return env[k] }
	write := func(p string) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("listen: 127.0.0.1:1\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	check := func(step string, got Found, path string, explicit bool) {
		t.Helper()
		if got.Path != path || got.Explicit != explicit || (got.By == "") != (path == "") || (len(got.Looked) > 0) != (path == "") {
			t.Errorf("%s: %+v, want %q (explicit %v)", step, got, path, explicit)
		}
	}
	check("nothing", Find("", getenv), "", false)
	write(Installed.Config)
	check("installed", Find("", getenv), Installed.Config, false)
	homeFile := filepath.Join(home, ".config", "climated", "climated.yaml")
	write(homeFile)
	check("~/.config", Find("", getenv), homeFile, false)
	env["XDG_CONFIG_HOME"] = xdg
	check("XDG_CONFIG_HOME without a file there", Find("", getenv), Installed.Config, false)
	xdgFile := filepath.Join(xdg, "climated", "climated.yaml")
	write(xdgFile)
	check("XDG_CONFIG_HOME", Find("", getenv), xdgFile, false)
	env["XDG_CONFIG_HOME"] = "relative/dir" // invalid by the XDG spec: ~/.config
	check("relative XDG_CONFIG_HOME", Find("", getenv), homeFile, false)
	env[EnvConfig] = "/nowhere/climated.yaml"
	check("$CLIMATED_CONFIG, missing", Find("", getenv), "/nowhere/climated.yaml", true)
	check("--config", Find("/given.yaml", getenv), "/given.yaml", true)
}
