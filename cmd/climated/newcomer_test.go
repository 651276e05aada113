package main

import (
	"bufio"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
)

// newcomer is a person new to climated: a fresh HOME, no configuration
// anywhere, climated on the PATH, and a shell to type into.
type newcomer struct {
	t    *testing.T
	home string
	bin  string // climated, as the PATH finds it
	env  []string
}

func newNewcomer(t *testing.T) *newcomer {
	dir := t.TempDir()
	n := &newcomer{t: t, home: t.TempDir(), bin: filepath.Join(dir, "climated")}
	os.WriteFile(n.bin, []byte("#!/bin/sh\nCLIMATED_RUN_MAIN=1 exec "+os.Args[0]+" \"$@\"\n"), 0o755)
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "HOME", "PATH", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "CLIMATED_CONFIG", "CLIMATED_TOKEN":
			continue // the newcomer's own, below: nothing of this machine's
		}
		n.env = append(n.env, kv)
	}
	n.env = append(n.env, "HOME="+n.home, "PATH="+dir+":"+os.Getenv("PATH"), "CLIMATED_TEST_INSTALLED="+noInstalledHub)
	return n
}

// sh runs script in the newcomer's shell and returns what it printed
// (stdout and stderr) and its exit status.
func (n *newcomer) sh(script string) (string, int) {
	n.t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir, cmd.Env = n.home, n.env
	timer := time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
	defer timer.Stop()
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		n.t.Fatalf("%s: %v", script, err)
	}
	return string(out), code
}

// terminalHub is `climated serve` running in the newcomer's terminal.
type terminalHub struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	log  strings.Builder
	done chan struct{}
}

func (h *terminalHub) logged() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.log.String()
}

var servingAt = regexp.MustCompile(`msg="serving MCP" .*streamable_http=http://(\S+)/mcp`)

// serve starts climated serve with args and waits until it serves; it
// stops with SIGTERM, as Ctrl-C stops it.
func (n *newcomer) serve(args ...string) (*terminalHub, string) {
	n.t.Helper()
	h := &terminalHub{cmd: exec.Command(n.bin, append([]string{"serve"}, args...)...), done: make(chan struct{})}
	h.cmd.Dir, h.cmd.Env = n.home, n.env
	stderr, _ := h.cmd.StderrPipe()
	if err := h.cmd.Start(); err != nil {
		n.t.Fatal(err)
	}
	n.t.Cleanup(h.stop)
	addr := make(chan string, 1)
	go func() {
		for sc := bufio.NewScanner(stderr); sc.Scan(); {
			h.mu.Lock()
			h.log.WriteString(sc.Text() + "\n")
			h.mu.Unlock()
			if m := servingAt.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		h.cmd.Wait()
		close(h.done)
	}()
	select {
	case a := <-addr:
		return h, a
	case <-h.done:
		n.t.Fatalf("climated serve %v stopped before it served:\n%s", args, h.logged())
	case <-time.After(60 * time.Second):
		n.t.Fatalf("climated serve %v does not serve within 60 s:\n%s", args, h.logged())
	}
	return nil, ""
}

func (h *terminalHub) stop() {
	select {
	case <-h.done:
		return
	default:
	}
	h.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-h.done:
	case <-time.After(20 * time.Second):
		h.cmd.Process.Kill()
		<-h.done
	}
}

// ownHouse is what the newcomer types to start their own configuration:
// the starter file where every command looks, listening on the network
// at port, a public URL, and a weather station (discovery off, as in
// every test).
func ownHouse(port string) string {
	return `mkdir -p ~/.config/climated && climated config example --starter > ~/.config/climated/climated.yaml &&
sed -i 's/^listen: .*/listen: 0.0.0.0:` + port + `/' ~/.config/climated/climated.yaml &&
cat >> ~/.config/climated/climated.yaml <<'EOF'
public_url: https://hub.example.net
discovery: false
station:
  zones: {outdoor: Garden, console: Hall, channel1: Bedroom}
EOF
climated config check`
}

// TestNewcomer walks the way from the quick start to a house of one's
// own as a newcomer takes it, on a fresh HOME: the demo house; the
// starter configuration in the default place; then, without --config,
// every command describes the hub that runs; a real GW2000A's upload to
// a wrong secret is logged and refused; once the station reports, the
// demo's zones are gone; a request piped into the bridge is answered at
// end of input.
func TestNewcomer(t *testing.T) {
	n := newNewcomer(t)
	// The quick start: the demo house, on a port of its own (the default
	// 8473 may be another program's on this machine).
	demo, addr := n.serve("--listen", "127.0.0.1:"+testutil.FreePort(t))
	if code, _, body := testutil.Do(t, "http://"+addr, testutil.Request{Method: "GET", Path: "/api/climate"}); code != 200 || !strings.Contains(body, `"Indoor"`) {
		t.Fatalf("the demo house's climate: %d %s", code, body)
	}
	demo.stop()

	readme := testutil.Doc(t, "README.md")
	for _, line := range strings.Split(ownHouse("")[:strings.Index(ownHouse(""), " &&\nsed")], " && ") {
		if !strings.Contains(readme, "\n"+line+"\n") {
			t.Errorf("the README's own house does not begin with %q", line)
		}
	}
	port := testutil.FreePort(t)
	if out, code := n.sh(ownHouse(port)); code != 0 || !strings.Contains(out, "a weather station") {
		t.Fatalf("config check: %d\n%s", code, out)
	}
	hub, addr := n.serve()
	base := "http://127.0.0.1:" + port
	if !strings.HasSuffix(addr, ":"+port) {
		t.Errorf("the hub serves at %s, not the configuration's port %s", addr, port)
	}
	for _, want := range []string{`found_by="the user's configuration"`, "demo house: its simulated readings are forgotten"} {
		if !strings.Contains(hub.logged(), want) {
			t.Errorf("the start-up log does not say %q:\n%s", want, hub.logged())
		}
	}
	newcomerCommands(t, n, port)
	newcomerStation(t, n, hub, base)
	// The bridge answers what was piped into it at end of input.
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"newcomer","version":"1"}}}`
	out, code := n.sh("printf '%s\\n' '" + init + "' | climated mcp --remote " + base + "/mcp --token-file ~/.local/state/climated/token 2>/dev/null")
	if code != 0 || !strings.Contains(out, `"id":1,"result"`) {
		t.Errorf("the bridge at end of input: exit %d\n%s", code, out)
	}
}

// newcomerCommands: every command, without --config, describes the hub
// that runs at port.
func newcomerCommands(t *testing.T, n *newcomer, port string) {
	for _, c := range []struct{ cmd, want, not string }{
		{"climated doctor", "a hub answers at 0.0.0.0:" + port, "demo house"},
		{"climated doctor", "WARN  station  no upload from a station in the history yet", ""},
		{"climated connect claude-desktop", `"--remote", "http://127.0.0.1:` + port + `/mcp", "--token-file"`, "read-only"},
		{"climated connect claude-ai", "https://hub.example.net/mcp", "public_url is not set"},
		{"climated station", "Port:              " + port, "loopback"},
		{"climated clients", "", "error"},
	} {
		out, code := n.sh(c.cmd)
		if !strings.Contains(out, c.want) || (c.not != "" && strings.Contains(out, c.not)) {
			t.Errorf("$ %s (exit %d) does not say %q, or says %q:\n%s", c.cmd, code, c.want, c.not, out)
		}
	}
}

// newcomerStation: a GW2000A's real upload (ecowitt2mqtt's fixture) to
// a wrong secret is refused and logged without the secret; to the path
// climated station prints, it is taken, and the demo's zones are gone.
func newcomerStation(t *testing.T, n *newcomer, hub *terminalHub, base string) {
	stationOut, _ := n.sh("climated station")
	path := regexp.MustCompile(`Path:\s+(/station/\S+/)data/report/`).FindStringSubmatch(stationOut)
	if path == nil {
		t.Fatalf("climated station prints no path:\n%s", stationOut)
	}
	form := stationForm(t, "payload_gw2000a_1.json", time.Now())
	post := func(p string) int {
		resp, err := http.PostForm(base+p, form)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post("/station/notthesecretatall/data/report/"); code != http.StatusNotFound {
		t.Errorf("an upload to a wrong secret: %d, want 404", code)
	}
	testutil.WaitFor(t, "the wrong secret in the log", func() bool {
		return strings.Contains(hub.logged(), "station: an upload came to a path the hub takes none at")
	})
	if strings.Contains(hub.logged(), "notthesecretatall") {
		t.Error("the log shows the wrong secret")
	}
	if code := post(path[1] + "data/report/"); code != http.StatusOK {
		t.Fatalf("the upload to the printed path: %d", code)
	}
	testutil.WaitFor(t, "the first upload in the log", func() bool { return strings.Contains(hub.logged(), "station: first upload") })
	token, err := os.ReadFile(filepath.Join(n.home, ".local", "state", "climated", "token"))
	if err != nil {
		t.Fatal(err)
	}
	_, _, climate := testutil.Do(t, base, testutil.Request{Method: "GET", Path: "/api/climate", Header: map[string]string{"Authorization": "Bearer " + strings.TrimSpace(string(token))}})
	if !strings.Contains(climate, `"Garden"`) {
		t.Errorf("the station's Garden is not in the climate: %s", climate)
	}
	for _, zone := range []string{"Indoor", "Balcony", "Rain"} {
		if strings.Contains(climate, `"`+zone+`"`) {
			t.Errorf("the demo's %s is still in the climate once the station reports: %s", zone, climate)
		}
	}
}
