package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBackupExportImport runs the data commands as a user would, beside a
// running hub: a backup, an export, and an import of that export into a
// new database that then exports the same; an import into the hub's own
// database is refused, naming the hub.
func TestBackupExportImport(t *testing.T) {
	cfg := demoConfig(t)
	startHub(t, cfg)
	dir := t.TempDir()
	out, err := climated("backup", "--db", cfg.Database, filepath.Join(dir, "backup.db")).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "backed up") {
		t.Fatalf("backup: %v %s", err, out)
	}
	// One absolute start for both exports: "2h" would move between them,
	// and a slow run would leave a reading out of the second.
	from := time.Now().Add(-2 * time.Hour).UTC().Format(time.RFC3339)
	export := func(db string, extra ...string) string {
		t.Helper()
		cmd := climated(append([]string{"export", "--db", db, "--zone", "Balcony", "--from", from}, extra...)...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		data, err := cmd.Output()
		if err != nil || !strings.Contains(stderr.String(), "exported") {
			t.Fatalf("export: %v %s", err, stderr.String())
		}
		return string(data)
	}
	csv := export(cfg.Database)
	if lines := strings.Count(csv, "\n"); lines < 100 || !strings.HasPrefix(csv, "time,zone,measurement,value,source\n") {
		t.Fatalf("export has %d lines: %.200s", lines, csv)
	}
	file := filepath.Join(dir, "balcony.csv")
	os.WriteFile(file, []byte(csv), 0o600)
	fresh := filepath.Join(dir, "fresh.db")
	if out, err := climated("import", "--db", fresh, file).CombinedOutput(); err != nil || !strings.Contains(string(out), "imported") {
		t.Fatalf("import: %v %s", err, out)
	}
	cmd := climated("import", "--db", cfg.Database, file)
	out, err = cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != 2 || !strings.Contains(string(out), "stop the hub first") || !strings.Contains(string(out), fmt.Sprintf("PID %d", os.Getpid())) {
		t.Errorf("import beside the hub: %v %s", err, out)
	}
	if again := export(fresh); again != csv {
		t.Errorf("the imported database exports something else")
	}
	if out, _ := climated("export", "--db", cfg.Database, "--from", "soon").CombinedOutput(); !strings.Contains(string(out), `--from: time "soon"`) {
		t.Errorf("a bad --from: %s", out)
	}
}

// TestExportUnknownZone: an export of a zone the history does not have
// fails and names the zones, as MCP does, rather than export nothing.
func TestExportUnknownZone(t *testing.T) {
	cfg := demoConfig(t)
	startHub(t, cfg)
	out, errOut, code := runCLI(t, "export", "--db", cfg.Database, "--zone", "Attic")
	if code != 2 || out != "" || !strings.Contains(errOut, `unknown zone "Attic"; the zones are `) || !strings.Contains(errOut, "Balcony") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
