package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/doctor"
)

// TestDoctorCommand runs the real process: a token file others can read
// is a failed check, exit status 1, and --json says so.
func TestDoctorCommand(t *testing.T) {
	dir := t.TempDir()
	token := filepath.Join(dir, "token")
	os.WriteFile(token, []byte("0123456789abcdefghij\n"), 0o644)
	os.Chmod(token, 0o644)
	conf := filepath.Join(dir, "climated.yaml")
	os.WriteFile(conf, []byte("listen: 0.0.0.0:0\nrain_gauge: {pin: GPIO17}\ntoken_file: "+token+"\ndatabase: "+filepath.Join(dir, "climated.db")+"\n"), 0o600)
	out, errOut, code := runCLI(t, "doctor", "--config", conf, "--json")
	var got struct {
		OK       bool
		Findings []doctor.Finding
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 1 || got.OK {
		t.Fatalf("exit %d, %v\nstdout %s\nstderr %s", code, err, out, errOut)
	}
	failed := map[string]bool{}
	for _, f := range got.Findings {
		failed[f.Check] = f.Status == doctor.StatusFail
	}
	if !failed["token"] || !failed["gpio"] || failed["database"] {
		t.Errorf("failed checks %v:\n%s", failed, out)
	}
}
