package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDefaultDatabase(t *testing.T) {
	t.Setenv("STATE_DIRECTORY", "/var/lib/climated:/var/lib/other")
	if got := defaultDatabase(); got != "/var/lib/climated/climated.db" {
		t.Errorf("under systemd: %s", got)
	}
	t.Setenv("STATE_DIRECTORY", "")
	t.Setenv("XDG_STATE_HOME", "/home/u/.state")
	if got := defaultDatabase(); got != "/home/u/.state/climated/climated.db" {
		t.Errorf("with XDG_STATE_HOME: %s", got)
	}
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "/home/u")
	if got := defaultDatabase(); got != "/home/u/.local/state/climated/climated.db" {
		t.Errorf("per user: %s", got)
	}
}

func TestConfigFileAndFlags(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(path, []byte("listen: 127.0.0.1:9999\ndatabase: /tmp/from-file.db\ntimezone: Europe/Berlin\ndemo:\n  seed: 7\n  interval: 30s\n"), 0o600)
	cfg, err := parseServe([]string{"--config", path, "--db", "/tmp/from-flag.db"}, io.Discard, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Listen != "127.0.0.1:9999" || cfg.Database != "/tmp/from-flag.db" || cfg.Demo.Seed != 7 || cfg.Demo.Interval != 30*time.Second || cfg.Timezone != "Europe/Berlin" {
		t.Errorf("config = %+v", cfg)
	}
	if cfg, _ := parseServe(nil, io.Discard, os.Stderr); cfg.Listen != DefaultListen {
		t.Errorf("default listen %s", cfg.Listen)
	}
	for _, c := range []struct{ yaml, want string }{
		{"timezone: Mars/Olympus\n", `timezone "Mars/Olympus"`},
		{"demo:\n  interval: 10ms\n", "demo.interval 10ms: must be at least 1s"},
		{"log_level: loud\n", `log_level "loud"`},
		{"demo:\n  seed: many\n", "c.yaml:2: demo.seed"},
	} {
		os.WriteFile(path, []byte(c.yaml), 0o600)
		if _, err := parseServe([]string{"--config", path}, io.Discard, os.Stderr); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.yaml, err, c.want)
		}
	}
}

func TestJournalLogsHaveNoTime(t *testing.T) {
	var out strings.Builder
	log, _ := newLogger(&out, "info", nil)
	log.Info("hello", "zone", "Indoor")
	t.Setenv("JOURNAL_STREAM", "8:12345")
	jlog, _ := newLogger(&out, "info", nil)
	jlog.Info("hello", "zone", "Indoor")
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "time=") || lines[1] != `level=INFO msg=hello zone=Indoor` {
		t.Errorf("log lines: %q", lines)
	}
}
