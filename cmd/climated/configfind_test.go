package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/config"
)

// TestCommandsFindTheUserConfig: with the configuration in the user's
// ~/.config/climated/climated.yaml and no --config, every command reads
// it as the hub does: doctor sees its listen address, connect its
// public_url, clients its database; $CLIMATED_CONFIG names another.
func TestCommandsFindTheUserConfig(t *testing.T) {
	xdg, state := t.TempDir(), t.TempDir()
	db := filepath.Join(state, "mine.db")
	file := filepath.Join(xdg, "climated", "climated.yaml")
	os.MkdirAll(filepath.Dir(file), 0o700)
	yaml := "listen: 0.0.0.0:18473\npublic_url: https://hub.example.ts.net\ndatabase: " + db + "\ndiscovery: false\n"
	if err := os.WriteFile(file, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(env []string, args ...string) string {
		t.Helper()
		var out bytes.Buffer
		cmd := climated(args...)
		cmd.Env = append(cmd.Env, env...)
		cmd.Stdout, cmd.Stderr = &out, &out
		cmd.Run() // doctor exits 1 on its findings: the output is what counts
		return out.String()
	}
	env := []string{"XDG_CONFIG_HOME=" + xdg}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"doctor"}, "0.0.0.0:18473"},
		{[]string{"connect", "claude-ai"}, "https://hub.example.ts.net/mcp"},
		{[]string{"serve", "--help"}, "~/.config/climated/climated.yaml"},
	} {
		if out := run(env, c.args...); !strings.Contains(out, c.want) || strings.Contains(out, "has no public_url") {
			t.Errorf("climated %s: want %q in\n%s", strings.Join(c.args, " "), c.want, out)
		}
	}
	// The database the file names is the one the data commands open.
	if out := run(env, "backup", filepath.Join(t.TempDir(), "b.db")); !strings.Contains(out, db) {
		t.Errorf("climated backup: want the file's database %s named in\n%s", db, out)
	}
	// $CLIMATED_CONFIG wins over the user's file, and a missing one is an error.
	if out := run(append(env, config.EnvConfig+"=/nonexistent/other.yaml"), "doctor"); !strings.Contains(out, "/nonexistent/other.yaml") {
		t.Errorf("climated doctor with $%s: want the missing file named in\n%s", config.EnvConfig, out)
	}
}
