package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/connect"
	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/history/hub"
)

// The test binary doubles as climated: with CLIMATED_RUN_MAIN=1 it runs
// main, so these tests exercise the real process, flags, signals and exit codes.
func TestMain(m *testing.M) {
	if os.Getenv("CLIMATED_RUN_MAIN") == "1" {
		// A test's stand-in for /etc/climated and /var/lib/climated.
		if c := os.Getenv("CLIMATED_TEST_INSTALLED"); c != "" {
			config.Installed.Config, config.Installed.State, _ = strings.Cut(c, string(os.PathListSeparator))
		}
		// The Node `connect inspector` finds: the tests' own, not this
		// machine's.
		if v, ok := os.LookupEnv("CLIMATED_TEST_NODE"); ok {
			connect.NodeVersion = func() string { return v }
		}
		main()
		os.Exit(0)
	}
	// Under -race a process sleeps a second at exit (GORACE
	// atexit_sleep_ms), for races with goroutines still running then.
	// climated has waited for every goroutine it started before it exits,
	// and these tests run it a few hundred times: the children skip it.
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	// Tests never read this machine's configuration: no user file, no
	// $CLIMATED_CONFIG, no installed hub's file, here or in the children
	// (a test that wants one sets it for its child).
	xdg := isolateConfig()
	// connect inspector's Node check sees a Node the Inspector runs on,
	// in every child, whatever this machine has (TestNodeAdvice tests it).
	os.Setenv("CLIMATED_TEST_NODE", "v22.19.0")
	code := m.Run()
	os.RemoveAll(xdg)
	if fixture.dir != "" {
		os.RemoveAll(fixture.dir)
	}
	os.Exit(code)
}

func climated(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "CLIMATED_RUN_MAIN=1", "CLIMATED_TEST_INSTALLED="+noInstalledHub)
	return cmd
}

// noInstalledHub is the stand-in for the installed hub's files where a
// test names none: a place where there is nothing.
var noInstalledHub = "/nonexistent/climated/climated.yaml" + string(os.PathListSeparator) + "/nonexistent/climated/state"

// isolateConfig keeps the tests and their children from this machine's
// configuration files (config.Find).
func isolateConfig() string {
	dir, err := os.MkdirTemp("", "climated-test-xdg-")
	if err != nil {
		panic(err)
	}
	// Empty, and open to the other users some tests run climated as
	// (TestMCPUnreadableDatabase): a directory they could not look into
	// would count as a configuration there that they may not read.
	if err := os.Chmod(dir, 0o755); err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	os.Unsetenv(config.EnvConfig)
	config.Installed.Config, config.Installed.State, _ = strings.Cut(noInstalledHub, string(os.PathListSeparator))
	return dir
}

func TestVersion(t *testing.T) {
	out, err := climated("version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^climated \S+ .*go1\.\d+.* linux/\w+\n$`).Match(out) {
		t.Errorf("version printed %q", out)
	}
}

var servingURL = regexp.MustCompile(`msg="serving MCP" .*streamable_http=(\S+)`)

// TestSIGTERMFlushesHistory starts the real process, waits until it
// serves, stops it with SIGTERM and checks that it exited cleanly with its
// latest state on disk.
func TestSIGTERMFlushesHistory(t *testing.T) {
	db := filepath.Join(t.TempDir(), "state", "climated.db")
	cmd := climated("serve", "--listen", "127.0.0.1:0", "--db", db)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// Never wait for ever: a hub that does not say where it serves is
	// killed, which ends the scan below.
	watchdog := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	defer watchdog.Stop()
	var logBuf bytes.Buffer
	lines := bufio.NewScanner(stderr)
	var mcpURL string
	for mcpURL == "" && lines.Scan() {
		logBuf.WriteString(lines.Text() + "\n")
		if m := servingURL.FindStringSubmatch(lines.Text()); m != nil {
			mcpURL = m[1]
		}
	}
	if mcpURL == "" {
		t.Fatalf("never said where it serves:\n%s", logBuf.String())
	}
	for _, want := range []string{"database=" + db, "simulated"} {
		if !strings.Contains(logBuf.String(), want) {
			t.Errorf("start-up log does not say %q:\n%s", want, logBuf.String())
		}
	}
	resp, err := http.Get(strings.TrimSuffix(mcpURL, "/mcp") + "/api/climate")
	if err != nil {
		t.Fatal(err)
	}
	var served climate.Structure
	json.NewDecoder(resp.Body).Decode(&served)
	resp.Body.Close()

	// A client that holds a session (and its event stream) open must not
	// hold up the shutdown.
	client := sdk.NewClient(&sdk.Implementation{Name: "holder", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: mcpURL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	go func() {
		for lines.Scan() {
			logBuf.WriteString(lines.Text() + "\n")
		}
	}()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		if err != nil {
			t.Fatalf("exit: %v\n%s", err, logBuf.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no exit within 20 s of SIGTERM")
	}

	if strings.Contains(logBuf.String(), "http shutdown") || !strings.Contains(logBuf.String(), `msg=stopped`) {
		t.Errorf("unclean shutdown:\n%s", logBuf.String())
	}
	s, err := hub.Open(context.Background(), db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	onDisk := s.Snapshot().Climate
	if got, want := onDisk["Indoor"]["When"], served["Indoor"]["When"]; got == nil || want == nil || float64(got.(int64)) < want.(float64) {
		t.Errorf("after SIGTERM the database has Indoor When %v, the hub served %v", got, want)
	}
}

func TestBadInvocations(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	content := []byte(strings.Repeat("not sqlite\n", 500))
	os.WriteFile(garbage, content, 0o600)
	aFile := filepath.Join(dir, "file")
	os.WriteFile(aFile, nil, 0o600)
	badYAML := filepath.Join(dir, "bad.yaml")
	os.WriteFile(badYAML, []byte("listen: 127.0.0.1:0\ncolour: blue\n"), 0o600)
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	db := filepath.Join(dir, "ok.db")
	os.MkdirAll(filepath.Join(dir, "open"), 0o755)
	os.WriteFile(filepath.Join(dir, "open", "token"), []byte("0123456789abcdefghij\n"), 0o644)

	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"not a database", []string{"--listen", "127.0.0.1:0", "--db", garbage}, []string{garbage, "not an SQLite database"}},
		{"database under a file", []string{"--listen", "127.0.0.1:0", "--db", filepath.Join(aFile, "x.db")}, []string{"create database directory"}},
		{"token file readable by others", []string{"--listen", "0.0.0.0:0", "--db", filepath.Join(dir, "open", "x.db")}, []string{"readable by others (mode 0644)", "chmod 600"}},
		{"listen without a port", []string{"--listen", "localhost", "--db", db}, []string{"want HOST:PORT"}},
		{"port in use", []string{"--listen", busy.Addr().String(), "--db", db}, []string{"listen on " + busy.Addr().String(), "address already in use"}},
		{"unknown config key", []string{"--config", badYAML, "--db", db}, []string{badYAML + ":2: unknown key colour"}},
		{"missing config", []string{"--config", filepath.Join(dir, "none.yaml")}, []string{"none.yaml", "no such file"}},
		{"unknown command", []string{"frobnicate"}, []string{`unknown command "frobnicate"`, "usage"}},
		{"unknown flag", []string{"serve", "--colour"}, []string{"flag provided but not defined: -colour"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := climated(c.args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			done := make(chan error, 1)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
					t.Errorf("exit %v, want status 2", err)
				}
			case <-time.After(20 * time.Second):
				cmd.Process.Kill()
				t.Fatal("still running after 20 s")
			}
			for _, w := range c.want {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr does not say %q:\n%s", w, stderr.String())
				}
			}
		})
	}
	if got, _ := os.ReadFile(garbage); !bytes.Equal(got, content) {
		t.Error("a file that is not a database was changed")
	}
}
