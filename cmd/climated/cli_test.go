package main

import (
	"bytes"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/doctor"
)

// runCLI runs the real process with args and returns its stdout, stderr
// and exit status; a process still running after 20 s is killed (a help
// request must never start a hub).
func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := climated(args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(20*time.Second, func() { cmd.Process.Kill() })
	defer timer.Stop()
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		return o.String(), e.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), 0
}

// everyCommand is each command a user can type, as its help names it.
var everyCommand = [][]string{
	{"serve"}, {"scan"}, {"read"}, {"mcp"}, {"connect"}, {"doctor"}, {"backup"}, {"export"},
	{"import"}, {"token"}, {"config"}, {"config", "check"}, {"config", "example"}, {"version"}, {"help"},
}

// runInProcess runs the command line in this process, as main would,
// and returns stdout, stderr and the status main would exit with.
func runInProcess(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	err := run(t.Context(), args, &o, &e)
	switch {
	case err == nil:
	case errors.Is(err, doctor.ErrUnhealthy):
		code = 1
	default:
		code = 2
	}
	return o.String(), e.String(), code
}

// TestHelpAndVersion: --help, -h and help on every command and subcommand
// print its usage on stdout and exit 0; the top level lists every command,
// one line each; --version prints the version. Every form runs in this
// process (a real process per form took a minute under -race); the real
// process checks that main turns them into exit statuses.
func TestHelpAndVersion(t *testing.T) {
	for _, top := range [][]string{{"--help"}, {"-h"}, {"help"}, {"-help"}} {
		out, errOut, code := runInProcess(t, top...)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "usage: climated COMMAND") {
			t.Errorf("climated %v: exit %d, stdout %q, stderr %q", top, code, out, errOut)
			continue
		}
		for _, c := range everyCommand {
			if len(c) > 1 {
				continue
			}
			if n := strings.Count(out, "\n  "+c[0]+" "); n != 1 {
				t.Errorf("climated %v lists %s on %d lines, want 1:\n%s", top, c[0], n, out)
			}
		}
	}
	for _, c := range everyCommand {
		name := strings.Join(c, " ")
		forms := [][]string{append(append([]string{}, c...), "--help"), append(append([]string{}, c...), "-h"), append([]string{"help"}, c...)}
		for _, args := range forms {
			out, errOut, code := runInProcess(t, args...)
			if code != 0 || errOut != "" || !strings.HasPrefix(out, "usage: climated "+name) {
				t.Errorf("climated %s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), code, out, errOut)
			}
		}
	}
	for _, args := range [][]string{{"--version"}, {"-version"}, {"version"}} {
		out, errOut, code := runInProcess(t, args...)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "climated ") || strings.Contains(out, "usage") {
			t.Errorf("climated %v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	// Wrong use is still an error, on stderr, with status 2.
	wrong := [][]string{{"help", "frobnicate"}, {"config", "frobnicate"}, {"serve", "--colour"}}
	for _, args := range wrong {
		out, errOut, code := runInProcess(t, args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "usage") {
			t.Errorf("climated %v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	// The real process, for the statuses main exits with.
	var wg sync.WaitGroup
	for _, c := range []struct {
		args []string
		code int
	}{{[]string{"--help"}, 0}, {[]string{"serve", "-h"}, 0}, {[]string{"help", "config", "check"}, 0}, {[]string{"--version"}, 0}, {wrong[0], 2}, {wrong[2], 2}} {
		wg.Go(func() {
			out, errOut, code := runCLI(t, c.args...)
			if code != c.code || (code == 0) != (out != "" && errOut == "") {
				t.Errorf("the process climated %v: exit %d (want %d), stdout %q, stderr %q", c.args, code, c.code, out, errOut)
			}
		})
	}
	wg.Wait()
}

// TestBusyPortWritesNothing: with the port taken, serve fails before it
// creates the database, its directory or a token, and says what to do.
func TestBusyPortWritesNothing(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	state := filepath.Join(t.TempDir(), "state")
	for _, listen := range []string{busy.Addr().String()} {
		_, errOut, code := runCLI(t, "serve", "--listen", listen, "--db", filepath.Join(state, "climated.db"))
		if code != 2 {
			t.Errorf("exit %d, want 2", code)
		}
		for _, want := range []string{"listen on " + listen, "address already in use", "another climated running?", "--listen"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("stderr does not say %q:\n%s", want, errOut)
			}
		}
		if _, err := os.Stat(state); err == nil {
			entries, _ := os.ReadDir(state)
			t.Errorf("a busy port still wrote %s: %v", state, entries)
		}
	}
}

// TestMissingToolsSkipOutsideCI runs TestTypeScriptClient where Node from
// npm is missing: outside CI it is skipped with the command that installs
// Node; with CI=true it fails.
func TestMissingToolsSkipOutsideCI(t *testing.T) {
	if os.Getenv("CLIMATED_INNER_TEST") == "1" {
		t.Skip("already the inner run")
	}
	// mcpClients is relative to the working directory: from here it names
	// nothing.
	dir := filepath.Join(t.TempDir(), "a", "b")
	os.MkdirAll(dir, 0o755)
	for _, ci := range []string{"", "true"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestTypeScriptClient$", "-test.v")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CI="+ci, "CLIMATED_INNER_TEST=1")
		out, err := cmd.CombinedOutput()
		switch {
		case ci == "" && (err != nil || !strings.Contains(string(out), "--- SKIP: TestTypeScriptClient") || !strings.Contains(string(out), "scripts/mcp-clients/install.sh")):
			t.Errorf("outside CI: %v\n%s", err, out)
		case ci == "true" && (err == nil || !strings.Contains(string(out), "--- FAIL: TestTypeScriptClient")):
			t.Errorf("with CI=true: %v\n%s", err, out)
		}
	}
}
