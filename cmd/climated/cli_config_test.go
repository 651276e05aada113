package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
)

// badQoSMessage is what every command says of the configuration package's
// testdata/bad-qos.yaml.
const badQoSMessage = "bad.yaml:7: mqtt: subscriptions[1]: qos 5: want 0, 1 or 2"

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
	if cfg, _ := parseServe(nil, io.Discard, os.Stderr); cfg.Listen != config.DefaultListen {
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

// TestEveryCommandRefusesABadFile: every command that reads a
// configuration refuses the bad file with the same located message, and
// writes no database.
func TestEveryCommandRefusesABadFile(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	badQoS, err := os.ReadFile("internal/config/testdata/bad-qos.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, badQoS, 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "never.db")
	csv := filepath.Join(dir, "in.csv")
	os.WriteFile(csv, []byte("time,zone,measurement,value,source\n"), 0o600)
	want := strings.Replace(badQoSMessage, "bad.yaml", bad, 1)
	for _, args := range [][]string{
		{"serve", "--config", bad, "--db", db},
		{"config", "check", bad},
		{"read", "--config", bad},
		{"export", "--config", bad, "--db", db},
		{"import", "--config", bad, "--db", db, csv},
		{"backup", "--config", bad, "--db", db, filepath.Join(dir, "copy.db")},
		{"token", "--config", bad, "--db", db},
		{"mcp", "--config", bad, "--db", db},
		{"doctor", "--config", bad, "--db", db},
	} {
		var out bytes.Buffer
		err := run(t.Context(), args, &out, &out)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("climated %s: %v, want %q", strings.Join(args[:2], " "), err, want)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("a command created the database despite the bad configuration")
	}
}
