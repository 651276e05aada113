package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// connectCmd runs the real climated connect with HOME in a temporary
// directory and no installed hub, from dir. connect probes the hub at the
// configuration's listen address, and a hub there (another test's, or
// this machine's on the default port) changes what it writes: the user's
// file in HOME, unless the test wrote one, names a server that is no hub.
func connectCmd(t *testing.T, home, dir string, args ...string) (string, error) {
	t.Helper()
	userFile := filepath.Join(home, ".config", "climated", "climated.yaml")
	if _, err := os.Stat(userFile); err != nil {
		notHub := httptest.NewServer(http.NotFoundHandler())
		t.Cleanup(notHub.Close)
		os.MkdirAll(filepath.Dir(userFile), 0o700)
		if err := os.WriteFile(userFile, []byte("listen: "+notHub.Listener.Addr().String()+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := climated(append([]string{"connect"}, args...)...)
	cmd.Env = append(cmd.Env, "HOME="+home, "XDG_CONFIG_HOME=", "CLIMATED_TEST_INSTALLED="+filepath.Join(home, "none.yaml")+string(os.PathListSeparator)+home)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s is not JSON after the write: %v\n%s", path, err, data)
	}
	return m
}

// TestConnectWrite merges the hub into clients' files in a temporary
// HOME: the other servers and keys stay, in their order, a backup of the
// old file is made, writing the same again changes nothing (no second
// backup), and a stale entry is replaced instead of another added.
func TestConnectWrite(t *testing.T) {
	home, work := t.TempDir(), t.TempDir()
	exe, _ := os.Executable()
	desktop := filepath.Join(home, ".config", "Claude", "claude_desktop_config.json")
	os.MkdirAll(filepath.Dir(desktop), 0o700)
	before := `{"globalShortcut": "Ctrl+Space", "mcpServers": {"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], "env": {"X": "1"}}}}`
	os.WriteFile(desktop, []byte(before), 0o600)

	for round, said := range []string{`added "climated" in ` + desktop, `"climated" in ` + desktop + ` is already as it would be written: nothing changed`, `replaced "climated" in ` + desktop} {
		if round == 2 { // an entry of an older install
			data, _ := os.ReadFile(desktop)
			os.WriteFile(desktop, bytes.Replace(data, []byte(exe), []byte("/opt/old/climated"), 1), 0o600)
		}
		out, err := connectCmd(t, home, work, "claude-desktop", "--write")
		if err != nil || !strings.Contains(out, said) {
			t.Fatalf("round %d: %v\n%s", round, err, out)
		}
		data, _ := os.ReadFile(desktop)
		if i, j, k := bytes.Index(data, []byte(`"globalShortcut"`)), bytes.Index(data, []byte(`"files"`)), bytes.Index(data, []byte(`"climated"`)); i < 0 || i > j || j > k {
			t.Errorf("round %d: the client's keys were reordered:\n%s", round, data)
		}
		m := readJSON(t, desktop)
		servers := m["mcpServers"].(map[string]any)
		if m["globalShortcut"] != "Ctrl+Space" || len(servers) != 2 {
			t.Errorf("round %d: other keys or servers disturbed: %v", round, m)
		}
		if files, _ := json.Marshal(servers["files"]); string(files) != `{"args":["-y","@modelcontextprotocol/server-filesystem","/tmp"],"command":"npx","env":{"X":"1"}}` {
			t.Errorf("the other server changed: %s", files)
		}
		if ours, _ := json.Marshal(servers["climated"]); string(ours) != `{"args":["mcp"],"command":"`+exe+`"}` {
			t.Errorf("our entry: %s", ours)
		}
	}
	backups, _ := filepath.Glob(desktop + ".bak-*")
	if len(backups) != 2 {
		t.Fatalf("backups %v, want one for each write that changed the file", backups)
	}
	if first, _ := os.ReadFile(backups[0]); string(first) != before {
		t.Errorf("the first backup is not the old file: %s", first)
	}
	if fi, _ := os.Stat(desktop); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the old file's 0600", fi.Mode())
	}

	// VS Code, remote: the token is an input prompt, added once.
	for range 2 {
		if out, err := connectCmd(t, home, work, "vscode", "--remote", "http://hub.local:8473/mcp", "--write"); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
	}
	m := readJSON(t, filepath.Join(home, ".config", "Code", "User", "mcp.json"))
	if ours, _ := json.Marshal(m["servers"].(map[string]any)["climated"]); string(ours) != `{"headers":{"Authorization":"Bearer ${input:climated-token}"},"type":"http","url":"http://hub.local:8473/mcp"}` {
		t.Errorf("vscode entry: %s", ours)
	}
	if in := m["inputs"].([]any); len(in) != 1 || in[0].(map[string]any)["password"] != true {
		t.Errorf("vscode inputs: %v", in)
	}

	// Claude Code: the project's .mcp.json, in the folder it runs in.
	if out, err := connectCmd(t, home, work, "claude-code", "--write"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if ours, _ := json.Marshal(readJSON(t, filepath.Join(work, ".mcp.json"))["mcpServers"].(map[string]any)["climated"]); string(ours) != `{"args":["mcp"],"command":"`+exe+`","type":"stdio"}` {
		t.Errorf("claude code entry: %s", ours)
	}

	// A file with comments (VS Code allows them) is left alone.
	cursor := filepath.Join(home, ".cursor", "mcp.json")
	os.MkdirAll(filepath.Dir(cursor), 0o700)
	commented := "{\n  // mine\n  \"mcpServers\": {}\n}\n"
	os.WriteFile(cursor, []byte(commented), 0o600)
	out, err := connectCmd(t, home, work, "cursor", "--write")
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(out, "not a plain JSON object") || !strings.Contains(out, "by hand") {
		t.Errorf("a file with comments: %v\n%s", err, out)
	}
	if got, _ := os.ReadFile(cursor); string(got) != commented {
		t.Errorf("the file with comments was changed: %s", got)
	}
	if out, err := connectCmd(t, home, work, "home-assistant", "--write"); err == nil || !strings.Contains(out, "configured in its own interface") {
		t.Errorf("home-assistant --write: %v %s", err, out)
	}
}

// TestConnectFromConfiguration: the values come from the hub's
// configuration file: its listen address, whether it needs the token,
// and --config where it is not the installed one.
func TestConnectFromConfiguration(t *testing.T) {
	home := t.TempDir()
	hubConfig := filepath.Join(t.TempDir(), "hub.yaml")
	os.WriteFile(hubConfig, []byte("listen: 0.0.0.0:9473\n"), 0o600)
	out, err := connectCmd(t, home, home, "generic", "--config", hubConfig)
	for _, want := range []string{"mcp --config " + hubConfig + "\n", "http://127.0.0.1:9473/mcp", "http://127.0.0.1:9473/sse", "Authorization: Bearer TOKEN"} {
		if err != nil || !strings.Contains(out, want) {
			t.Errorf("does not say %q: %v\n%s", want, err, out)
		}
	}
	// The installed configuration is found by climated mcp itself: not named.
	cmd := climated("connect", "claude-desktop")
	cmd.Env = append(cmd.Env, "CLIMATED_TEST_INSTALLED="+hubConfig+string(os.PathListSeparator)+home)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), `"args": ["mcp"]`) {
		t.Errorf("installed configuration: %v\n%s", err, out)
	}
}

// TestConnectRemoteLoopbackToNetworkHub: on a hub that listens beyond
// loopback, --remote http://127.0.0.1:PORT/mcp (the README's recipe for
// an assistant on the hub itself) reaches a hub that wants the token from
// every request, so the recipe sends it; a hub on loopback does not.
func TestConnectRemoteLoopbackToNetworkHub(t *testing.T) {
	home := t.TempDir()
	for listen, wantToken := range map[string]bool{"0.0.0.0:9473": true, "127.0.0.1:9473": false} {
		config := filepath.Join(t.TempDir(), "hub.yaml")
		os.WriteFile(config, []byte("listen: "+listen+"\n"), 0o600)
		out, err := connectCmd(t, home, home, "claude-code", "--config", config, "--remote", "http://127.0.0.1:9473/mcp")
		if got := strings.Contains(out, "Bearer ${CLIMATED_TOKEN}"); err != nil || got != wantToken {
			t.Errorf("listen %s: the recipe sends the token: %v, want %v (%v)\n%s", listen, got, wantToken, err, out)
		}
	}
}
