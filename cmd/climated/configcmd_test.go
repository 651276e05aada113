package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/config"
)

// TestConfigExampleCommand: config example prints the annotated example,
// and --starter the starter file (the configuration package checks both).
func TestConfigExampleCommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []byte
	}{{[]string{"config", "example"}, config.Example}, {[]string{"config", "example", "--starter"}, config.Starter}} {
		var out bytes.Buffer
		if err := run(t.Context(), c.args, &out, os.Stderr); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), c.want) {
			t.Errorf("climated %v printed %d bytes, not the file of %d", c.args, out.Len(), len(c.want))
		}
	}
}

// TestConfigCheckCommand runs the command as a user would: exit 0 and a
// summary for a good file, exit 2 and FILE:LINE for a bad one, and serve
// refuses the bad file the same way, without touching the database.
func TestConfigCheckCommand(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	os.WriteFile(good, []byte("listen: 127.0.0.1:8473\n"), 0o600)
	out, err := climated("config", "check", good).CombinedOutput()
	if err != nil || !strings.Contains(string(out), good+": ok (listen 127.0.0.1:8473, no sensors: scan the I²C bus, else the demo house)") {
		t.Errorf("check a good file: %v %s", err, out)
	}
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("listen: 127.0.0.1:8473\nsensors:\n  - {zone: Indoor, chip: bme281}\n"), 0o600)
	db := filepath.Join(dir, "never.db")
	for _, args := range [][]string{{"config", "check", bad}, {"serve", "--config", bad, "--db", db}} {
		out, err := climated(args...).CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), bad+":3: sensors[0].chip") {
			t.Errorf("climated %v: %v %s", args, err, out)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("serve created the database despite a bad configuration")
	}
}

// TestConfigCheckPasswordEnvUnset: config check checks the file; a
// password_env this shell lacks (the service has it from its environment
// file) is a note naming the variable, not an error.
func TestConfigCheckPasswordEnvUnset(t *testing.T) {
	file := filepath.Join(t.TempDir(), "climated.yaml")
	os.WriteFile(file, []byte("mqtt:\n  broker: tcp://127.0.0.1:1883\n  username: climated\n  password_env: CLIMATED_TEST_UNSET_PASSWORD\n  publish: {enabled: true}\n"), 0o600)
	var out bytes.Buffer
	err := run(t.Context(), []string{"config", "check", file}, &out, os.Stderr)
	if err != nil || !strings.Contains(out.String(), ": ok (") || !strings.Contains(out.String(), "note: CLIMATED_TEST_UNSET_PASSWORD (mqtt.password_env) is not set here") {
		t.Errorf("config check: %v\n%s", err, out.String())
	}
}

// config check with no FILE and no installed configuration
// named the missing default without saying that a FILE can be given.
func TestConfigCheckWithoutFile(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "climated.yaml")
	cmd := climated("config", "check")
	cmd.Env = append(cmd.Env, "CLIMATED_TEST_INSTALLED="+missing+string(os.PathListSeparator)+dir)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("config check of a missing default passed:\n%s", out)
	}
	for _, want := range []string{missing, "no such file", "when given no FILE", "climated config check ./climated.yaml", "climated config example > "} {
		if !strings.Contains(string(out), want) {
			t.Errorf("config check without a file does not say %q:\n%s", want, out)
		}
	}
}
