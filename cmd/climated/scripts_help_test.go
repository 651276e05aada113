package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
)

// TestScriptsAnswerHelp: every script answers -h and --help with its
// header comment, its usage, exits 0 and does nothing else (deb.sh --help
// once built three packages named …+.help…). A script without the line
// that does it is not run at all: it would do its work.
func TestScriptsAnswerHelp(t *testing.T) {
	root := testutil.Root(t)
	scripts, _ := filepath.Glob(filepath.Join(root, "scripts", "*.sh"))
	scripts = append(scripts, filepath.Join(root, "scripts", "mcp-clients", "install.sh"))
	if len(scripts) < 10 {
		t.Fatalf("found %d scripts", len(scripts))
	}
	before := gitStatus(t, root)
	for _, script := range scripts {
		name, _ := filepath.Rel(root, script)
		text, err := os.ReadFile(script)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(text), `-h | --help) sed -n`) {
			t.Errorf("%s does not answer --help (not run)", name)
			continue
		}
		want := header(string(text))
		for _, flag := range []string{"-h", "--help"} {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			out, err := exec.CommandContext(ctx, script, flag).CombinedOutput()
			cancel()
			if err != nil || strings.TrimSpace(string(out)) != want {
				t.Errorf("%s %s: %v\n%s\nwant its header:\n%s", name, flag, err, out, want)
			}
		}
	}
	if after := gitStatus(t, root); after != before {
		t.Errorf("the scripts' --help changed the checkout:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// header is a script's comment after the #! line, without the "# ".
func header(text string) string {
	var lines []string
	for _, l := range strings.Split(text, "\n")[1:] {
		if !strings.HasPrefix(l, "#") {
			break
		}
		lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(l, "#"), " "))
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

func gitStatus(t *testing.T, root string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=all").CombinedOutput()
	if err != nil {
		t.Skipf("git status: %v %s", err, out) // a tree without git: the check needs it
	}
	return string(out)
}
