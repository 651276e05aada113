package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestImportProgressNotOnATerminal: a pipe gets no bar (no carriage
// returns), only the summary.
func TestImportProgressNotOnATerminal(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "in.csv")
	var b strings.Builder
	b.WriteString("time,zone,measurement,value,source\n")
	start := time.Now().Add(-time.Hour).Truncate(time.Second)
	for i := range 500 {
		b.WriteString(start.Add(time.Duration(i)*time.Second).UTC().Format(time.RFC3339) + ",Indoor,Temperature,21.5,test\n")
	}
	os.WriteFile(csv, []byte(b.String()), 0o600)
	out, errOut, code := runCLI(t, "import", "--db", filepath.Join(dir, "x.db"), csv)
	if code != 0 || strings.Contains(errOut, "\r") || !strings.Contains(out, "imported 500 readings from "+csv) || !strings.Contains(out, "(0 broken lines skipped)") {
		t.Errorf("exit %d\nstdout %q\nstderr %q", code, out, errOut)
	}
}
