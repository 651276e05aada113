package main

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/internal/testutil"
)

// TestReload: a reload swaps the demo house for an MQTT device, changes
// the log level, refuses a broken file (naming FILE:LINE) without
// stopping what runs, and says which keys wait for a restart.
func TestReload(t *testing.T) {
	broker, brokerAddr := testutil.LoopbackBroker(t)

	dir := t.TempDir()
	path := filepath.Join(dir, "climated.yaml")
	head := "listen: 127.0.0.1:0\ndatabase: " + filepath.Join(dir, "climated.db") + "\n"
	write := func(body string) {
		if err := os.WriteFile(path, []byte(head+body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("demo: {enabled: true}\n")
	demoHistory(t, filepath.Join(dir, "climated.db"))
	h, reload, logs, level := serveReloading(t, path)
	if h.Hub.Snapshot().Climate["Indoor"] == nil {
		t.Fatal("the demo house is not running")
	}

	write(`log_level: debug
mqtt:
  broker: tcp://` + brokerAddr + `
  subscriptions:
    - {topic: "zigbee2mqtt/+", format: zigbee2mqtt, devices: {attic_th: Attic}}
`)
	reload <- struct{}{}
	testutil.WaitFor(t, "configuration reloaded", func() bool { return strings.Contains(logs.String(), `msg="configuration reloaded"`) })
	if level.Level() != slog.LevelDebug {
		t.Errorf("log level after reload: %v, want debug", level.Level())
	}
	testutil.WaitFor(t, "the MQTT device's reading arrives after the reload", func() bool {
		broker.Publish("zigbee2mqtt/attic_th", []byte(`{"temperature":12.5,"humidity":61}`), false, 0)
		return h.Hub.Snapshot().Climate["Attic"]["Temperature"] == 12.5
	})
	// The demo house stopped with the old configuration.
	if !strings.Contains(logs.String(), `msg="configuration reloaded" sources=1 zones=[Attic] simulated=false`) {
		t.Errorf("the reload did not replace the demo house by the MQTT device:\n%s", logs.String())
	}

	// A broken file changes nothing and says where it is wrong.
	write("mqtt:\n  broker: tcp://" + brokerAddr + "\n  subscriptions:\n    - {topic: \"zigbee2mqtt/+\", format: nonsense}\n")
	before := strings.Count(logs.String(), "\n")
	reload <- struct{}{}
	testutil.WaitFor(t, "reload refused", func() bool { return strings.Contains(logs.String(), "reload refused") })
	refusal := logs.String()
	if !strings.Contains(refusal, path+":") || !strings.Contains(refusal, "nonsense") {
		t.Errorf("the refusal does not name FILE:LINE and the bad value:\n%s", refusal)
	}
	if strings.Count(refusal, "\n") < before {
		t.Fatal("log shrank")
	}
	testutil.WaitFor(t, "the MQTT source still runs after a refused reload", func() bool {
		broker.Publish("zigbee2mqtt/attic_th", []byte(`{"temperature":13.5}`), false, 0)
		return h.Hub.Snapshot().Climate["Attic"]["Temperature"] == 13.5
	})

	// Keys that need a restart are named, and keep their running values.
	os.WriteFile(path, []byte(strings.Replace(head, "127.0.0.1:0", "127.0.0.1:1", 1)+"demo: {enabled: true}\npublic_url: https://hub.example.ts.net\ndiscovery: false\nlocation: {latitude: 52.52, longitude: 13.4}\ndegree_day_base: 15\n"), 0o600)
	reload <- struct{}{}
	defer func() {
		if t.Failed() {
			t.Log(logs.String())
		}
	}()
	testutil.WaitFor(t, "restart keys named", func() bool {
		return strings.Contains(logs.String(), `msg="reload: these keys take effect after a restart" keys="[listen public_url discovery location degree_day_base]"`)
	})
	testutil.WaitFor(t, "the second reload finished", func() bool {
		return strings.Count(logs.String(), `msg="configuration reloaded"`) == 2
	})
	// Reloaded again, the same file still waits for a restart for every
	// one of those keys: each kept its running value (location and
	// degree_day_base once were named but not kept, so a second reload
	// said nothing of them while the history used the old ones).
	reload <- struct{}{}
	testutil.WaitFor(t, "the third reload finished", func() bool {
		return strings.Count(logs.String(), `msg="configuration reloaded"`) == 3
	})
	if n := strings.Count(logs.String(), `keys="[listen public_url discovery location degree_day_base]"`); n != 2 {
		t.Errorf("the restart keys named %d times over two reloads of the same file, want 2", n)
	}
}

// TestSIGHUPReloads is the real process: SIGHUP reloads (it used to kill
// the daemon without a flush), and SIGTERM still ends it cleanly.
func TestSIGHUPReloads(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "climated.yaml")
	os.WriteFile(path, []byte("listen: 127.0.0.1:0\ndatabase: "+filepath.Join(dir, "climated.db")+"\ndemo: {enabled: true}\n"), 0o600)
	demoHistory(t, filepath.Join(dir, "climated.db"))
	cmd := climated("serve", "--config", path)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	watchdog := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	defer watchdog.Stop()
	lines := bufio.NewScanner(stderr)
	var log strings.Builder
	waitLine := func(want string) {
		t.Helper()
		for lines.Scan() {
			log.WriteString(lines.Text() + "\n")
			if strings.Contains(lines.Text(), want) {
				return
			}
		}
		t.Fatalf("the hub never logged %q:\n%s", want, log.String())
	}
	waitLine(`msg="serving MCP"`)
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	waitLine(`msg="configuration reloaded"`)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitLine(`msg=stopped`)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGHUP then SIGTERM: %v\n%s", err, log.String())
	}
}

// serveReloading serves the configuration at path as climated serve does,
// reloading it at every send on reload, until the test ends; logs is what
// the hub logs, at level.
func serveReloading(t *testing.T, path string) (served, chan<- struct{}, *testutil.Buffer, *slog.LevelVar) {
	t.Helper()
	load := func() (config.Config, error) { return parseServe([]string{"--config", path}, io.Discard, io.Discard) }
	cfg, err := load()
	if err != nil {
		t.Fatal(err)
	}
	logs := new(testutil.Buffer)
	level := new(slog.LevelVar)
	log, _ := newLogger(logs, cfg.LogLevel, level)
	reload := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan served, 1)
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, cfg, log, serveEnv{ready: func(h served) { ready <- h }, reload: reload, load: load, level: level})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return <-ready, reload, logs, level
}
