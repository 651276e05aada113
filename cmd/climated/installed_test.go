package main

import (
	"context"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/internal/testutil"
)

// fakeInstall lays out a hub as the package installs it, under a
// temporary directory: the configuration file and the state directory,
// with the database climated serve wrote there. It returns the
// environment entry that points a child climated at it.
func fakeInstall(t *testing.T, yaml string) (env, config, db string) {
	t.Helper()
	root := t.TempDir()
	config = filepath.Join(root, "etc", "climated.yaml")
	state := filepath.Join(root, "state")
	os.MkdirAll(filepath.Dir(config), 0o755)
	if err := os.WriteFile(config, []byte(yaml), 0o640); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t)
	cfg.Database = filepath.Join(state, "climated.db")
	demoHistory(t, cfg.Database)
	startHub(t, cfg)
	return "CLIMATED_TEST_INSTALLED=" + config + string(os.PathListSeparator) + state, config, cfg.Database
}

// TestMCPFindsInstalledHub: on an installed hub, climated mcp without
// flags reads the service's configuration and serves the service's
// database from its state directory, not the user's own.
func TestMCPFindsInstalledHub(t *testing.T) {
	env, config, db := fakeInstall(t, "timezone: Europe/Berlin\n")
	cmd := climated("mcp")
	cmd.Env = append(cmd.Env, env, "HOME="+t.TempDir(), "XDG_STATE_HOME=")
	var stderr testutil.Buffer
	cmd.Stderr = &stderr
	client := sdk.NewClient(&sdk.Implementation{Name: "installed-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "get_climate"})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, `"Indoor"`) {
		t.Fatalf("get_climate from the installed hub's database: %v %+v", err, res)
	}
	cs.Close()
	for _, want := range []string{"database=" + db, "config=" + config, "timezone=Europe/Berlin"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr does not say %q (the installed configuration was not read):\n%s", want, stderr.String())
		}
	}

	// --config names another file: the installed one is not read.
	other := filepath.Join(t.TempDir(), "other.yaml")
	os.WriteFile(other, []byte("database: "+filepath.Join(t.TempDir(), "none.db")+"\n"), 0o600)
	cmd = climated("mcp", "--config", other)
	cmd.Env = append(cmd.Env, env)
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), "none.db") || !strings.Contains(string(out), "start climated serve first") {
		t.Errorf("--config did not win over the installed file: %s", out)
	}
}

// TestMCPUnreadableDatabase runs climated mcp as an unprivileged user
// against a database it may not read, and checks that the error says
// which group to join, or whom to run it as.
func TestMCPUnreadableDatabase(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run the child as another user")
	}
	nobody, err := user.Lookup("nobody")
	if err != nil {
		t.Skip("no user nobody")
	}
	uid, _ := strconv.Atoi(nobody.Uid)
	gid, _ := strconv.Atoi(nobody.Gid)
	// The child runs as nobody: it needs a binary it may execute.
	bin := filepath.Join(t.TempDir(), "climated")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(bin, data, 0o755)
	for d := filepath.Dir(bin); d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		os.Chmod(d, 0o755)
	}
	cfg := demoConfig(t)
	startHub(t, cfg)
	dir := filepath.Dir(cfg.Database)
	for d := dir; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		os.Chmod(d, 0o755)
	}
	group, err := user.LookupGroupId("1") // daemon on Debian: any group nobody is not in
	if err != nil {
		t.Skip("no group 1")
	}
	for _, c := range []struct {
		name string
		mode os.FileMode
		want []string
	}{
		{"group may read", 0o640, []string{"join group " + group.Name, "sudo usermod -aG " + group.Name + " $USER", "run it as root: sudo climated mcp --db " + cfg.Database}},
		{"only the owner", 0o600, []string{"mode 0600", "only root may read it", "run sudo climated mcp --db " + cfg.Database}},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.Chown(cfg.Database, 0, 1)
			os.Chmod(cfg.Database, c.mode)
			cmd := exec.Command(bin, "mcp", "--db", cfg.Database)
			cmd.Env = append(os.Environ(), "CLIMATED_RUN_MAIN=1", "HOME=/nonexistent")
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
			cmd.Stdin = strings.NewReader("")
			out, err := cmd.CombinedOutput()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
				t.Errorf("exit %v, want status 2", err)
			}
			for _, w := range c.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("the error does not say %q:\n%s", w, out)
				}
			}
		})
	}
	os.Chmod(cfg.Database, 0o600)

	// The token, likewise.
	os.WriteFile(filepath.Join(dir, "token"), []byte("0123456789abcdefghij\n"), 0o600)
	cmd := exec.Command(bin, "token", "--db", cfg.Database)
	cmd.Env = append(os.Environ(), "CLIMATED_RUN_MAIN=1", "HOME=/nonexistent")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	if out, _ := cmd.CombinedOutput(); !strings.Contains(string(out), "only root may read it: run sudo climated token") {
		t.Errorf("an unreadable token: %s", out)
	}

	// The installed configuration in a directory nobody may enter
	// (/etc/climated is root:climated 0750): no flags, and the error says
	// which group to join instead of looking for a database elsewhere.
	etc := filepath.Join(filepath.Dir(bin), "etc")
	os.Mkdir(etc, 0o750)
	os.WriteFile(filepath.Join(etc, "climated.yaml"), []byte("timezone: UTC\n"), 0o640)
	os.Chown(etc, 0, 1)
	cmd = exec.Command(bin, "mcp")
	cmd.Env = append(os.Environ(), "CLIMATED_RUN_MAIN=1", "HOME=/nonexistent",
		"CLIMATED_TEST_INSTALLED="+filepath.Join(etc, "climated.yaml")+string(os.PathListSeparator)+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	out, _ := cmd.CombinedOutput()
	for _, w := range []string{etc + " belongs to root:" + group.Name, "join group " + group.Name} {
		if !strings.Contains(string(out), w) {
			t.Errorf("hidden installed configuration: the error does not say %q:\n%s", w, out)
		}
	}
}
