package main

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/connect"
	"github.com/climated/climated/internal/testutil"
)

// readmeExe is where the README's recipes say climated is: where go
// install puts it.
const readmeExe = "/home/you/go/bin/climated"

// TestREADMEConnect runs every `climated connect` the README and docs/
// show and compares the output with what they say it prints, so that the
// recipes cannot drift from the program. Only the binary's path and the
// hub's port differ from one machine to the next. A recipe for this
// machine's hub that says a hub answers runs beside a real hub on
// loopback; the others where none answers.
func TestREADMEConnect(t *testing.T) {
	t.Parallel() // a process per recipe, in its own HOME
	data := testutil.Docs(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	hub := startHub(t, demoConfig(t))
	_, running, _ := net.SplitHostPort(hub.Addr.String())
	installed := map[bool]string{
		true:  installedListening(t, running),
		false: installedListening(t, testutil.FreePort(t)),
	}
	seen := map[string]bool{}
	blocks := strings.Split(data, "```")
	for i := 1; i < len(blocks); i += 2 { // the odd pieces are inside fences
		cmdLine, want, _ := strings.Cut(strings.TrimPrefix(blocks[i], "\n"), "\n")
		if !strings.HasPrefix(cmdLine, "$ climated connect ") {
			continue
		}
		args := strings.Fields(strings.TrimPrefix(cmdLine, "$ climated "))
		if slices.Contains(args, "--write") {
			t.Errorf("the README's %q would write a file: show the output instead", cmdLine)
			continue
		}
		answering := strings.Contains(want, "A hub answers at ")
		conf := installed[answering]
		cmd := climated(args...)
		// The installed hub is one of this test's, whatever this machine has.
		cmd.Env = append(cmd.Env, "HOME="+home, "CLIMATED_TEST_INSTALLED="+conf+string(os.PathListSeparator)+home)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("%s: %v\n%s", cmdLine, err, out)
			continue
		}
		got := strings.ReplaceAll(string(out), exe, readmeExe)
		got = listenPort.ReplaceAllString(got, "127.0.0.1:8473")
		if got != want {
			t.Errorf("%s prints something other than the README shows:\n--- README\n%s--- climated\n%s", cmdLine, want, got)
		}
		where := " local"
		if slices.Contains(args, "--remote") {
			where = " remote"
		}
		seen[args[1]+where], seen["answering"] = true, seen["answering"] || answering
	}
	for _, id := range connect.IDs() {
		for _, where := range []string{" local", " remote"} {
			if !seen[id+where] {
				t.Errorf("the README has no recipe for %s%s", id, where)
			}
		}
	}
	if !seen["answering"] {
		t.Error("no recipe shows what connect prints while this machine's hub runs")
	}
}

// listenPort is a loopback address with the port of one of the test's hubs.
var listenPort = regexp.MustCompile(`127\.0\.0\.1:\d+`)

// installedListening writes an installed configuration that listens on
// loopback at port, and returns its path.
func installedListening(t *testing.T, port string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "climated.yaml")
	if err := os.WriteFile(file, []byte("listen: 127.0.0.1:"+port+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestUsageListsNewCommands: climated --help names connect and the
// bridge, and their own help shows how to call them.
func TestUsageListsNewCommands(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--help"}, []string{"\n  connect ", "home-assistant", "bridge to a hub's /mcp"}},
		{[]string{"mcp", "--help"}, []string{"--remote URL", "--token-file FILE"}},
		{[]string{"connect", "--help"}, []string{"climated connect CLIENT", "--write"}},
	} {
		out, err := climated(c.args...).Output()
		for _, want := range c.want {
			if err != nil || !strings.Contains(string(out), want) {
				t.Errorf("climated %v does not say %q: %v\n%s", c.args, want, err, out)
			}
		}
	}
}

// TestREADMEShellExamples runs the README's shell sessions that need no
// hub (climated --help, a configuration check) as written, in a shell
// with climated on its PATH, and compares what they print.
func TestREADMEShellExamples(t *testing.T) {
	data := testutil.Docs(t)
	bin := t.TempDir()
	os.WriteFile(filepath.Join(bin, "climated"), []byte("#!/bin/sh\nCLIMATED_RUN_MAIN=1 exec "+os.Args[0]+" \"$@\"\n"), 0o755)
	ran := 0
	blocks := strings.Split(data, "```")
	for i := 1; i < len(blocks); i += 2 {
		block := strings.TrimPrefix(blocks[i], "\n")
		if !strings.HasPrefix(block, "$ climated --help\n") && !strings.HasPrefix(block, "$ printf ") {
			continue
		}
		var script, want strings.Builder
		for _, line := range strings.SplitAfter(block, "\n") {
			if cmd, ok := strings.CutPrefix(line, "$ "); ok {
				script.WriteString(cmd)
			} else {
				want.WriteString(line)
			}
		}
		cmd := exec.Command("sh", "-c", script.String())
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
		got, _ := cmd.CombinedOutput()
		if string(got) != want.String() {
			t.Errorf("the README shows\n%s\nbut it prints\n%s", want.String(), got)
		}
		ran++
	}
	if ran < 2 {
		t.Errorf("found %d of the README's shell sessions, want 2 (climated --help, config check)", ran)
	}
}

var logMsg = regexp.MustCompile(`msg=("[^"]*"|\S+)`)

// TestREADMEStartupLog: the quick start's log is what a first start of
// the demo house logs, message for message.
func TestREADMEStartupLog(t *testing.T) {
	data := testutil.Doc(t, "README.md")
	const first = "level=INFO msg=\"no configuration file"
	_, rest, _ := strings.Cut(data, "```\n"+first)
	readme, _, _ := strings.Cut(first+rest, "```")
	var want []string
	for _, m := range logMsg.FindAllStringSubmatch(readme, -1) {
		want = append(want, m[1])
	}
	cmd := climated("serve", "--listen", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "climated.db"))
	cmd.Env = append(cmd.Env, "CLIMATED_TEST_INSTALLED="+filepath.Join(t.TempDir(), "none.yaml")+string(os.PathListSeparator)+t.TempDir())
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
	var got []string
	lines := bufio.NewScanner(stderr)
	for len(got) < len(want) && lines.Scan() {
		// Progress lines come only on a machine slow enough to make one
		// wonder (progress.go): they are not part of the comparison.
		if m := logMsg.FindStringSubmatch(lines.Text()); m != nil && !strings.HasPrefix(m[1], `"demo house: filling in`) {
			got = append(got, m[1])
		}
	}
	// The demo house's source logs from its own goroutine, so its line
	// and "serving MCP" come in either order: the messages are compared,
	// not their order.
	if len(want) < 5 || !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) {
		t.Errorf("the README's start-up log has the messages\n%q\na first start logs\n%q", want, got)
	}
}

// TestREADMEConfigs: every configuration the README shows in a yaml block
// passes `climated config check` as written, in a shell that has none of
// the secrets it names (they are the service's, in its environment file);
// the Prometheus configurations are Prometheus's, and the tunnel's
// is cloudflared's, not climated's.
func TestREADMEConfigs(t *testing.T) {
	data := testutil.Docs(t)
	checked := 0
	blocks := strings.Split(data, "```")
	for i := 1; i < len(blocks); i += 2 {
		yml, ok := strings.CutPrefix(blocks[i], "yaml\n")
		if !ok || strings.HasPrefix(yml, "scrape_configs:") || strings.HasPrefix(yml, "storage:") || strings.HasPrefix(yml, "tunnel:") {
			continue
		}
		file := filepath.Join(t.TempDir(), "climated.yaml")
		os.WriteFile(file, []byte(yml), 0o600)
		cmd := climated("config", "check", file)
		cmd.Env = slices.DeleteFunc(cmd.Env, func(kv string) bool { return strings.HasPrefix(kv, "CLIMATED_MQTT_PASSWORD=") })
		if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), ": ok (") {
			t.Errorf("climated config check of the README's\n%s\nsays: %v\n%s", yml, err, out)
		}
		checked++
	}
	if checked < 4 {
		t.Errorf("checked %d of the README's configurations, want 4 (sensors, mqtt, alerts, short example)", checked)
	}
}

// TestREADMEPortTaken: what the quick start quotes of the error for a
// port already taken is what serve says.
func TestREADMEPortTaken(t *testing.T) {
	data := testutil.Doc(t, "README.md")
	_, quote, _ := strings.Cut(strings.Join(strings.Fields(data), " "), "If the port is taken, climated says so before it writes anything (`")
	quote, _, _ = strings.Cut(quote, "`")
	quote = strings.Join(strings.Fields(quote), " ")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	out, err := climated("serve", "--listen", l.Addr().String(), "--db", filepath.Join(t.TempDir(), "climated.db")).CombinedOutput()
	if err == nil || len(quote) < 40 || !strings.Contains(string(out), quote) {
		t.Errorf("the README quotes %q; serve on a taken port says (%v)\n%s", quote, err, out)
	}
}
