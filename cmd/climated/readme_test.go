package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// readmeExe is where the README's recipes say climated is: where go
// install puts it.
const readmeExe = "/home/you/go/bin/climated"

// TestREADMEConnect runs every `climated connect` the README shows and
// compares the output with what the README says it prints, so that the
// recipes cannot drift from the program. Only the binary's path differs
// from one machine to the next.
func TestREADMEConnect(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	seen := map[string]bool{}
	blocks := strings.Split(string(data), "```")
	for i := 1; i < len(blocks); i += 2 { // the odd pieces are inside fences
		cmdLine, want, _ := strings.Cut(strings.TrimPrefix(blocks[i], "\n"), "\n")
		if !strings.HasPrefix(cmdLine, "$ climated connect ") {
			continue
		}
		args := strings.Fields(strings.TrimPrefix(cmdLine, "$ climated "))
		if slices.Contains(args, "--write") {
			t.Errorf("the README's %q would write a file: show the output instead", cmdLine)
			continue
		}
		cmd := climated(args...)
		// No installed hub here, whatever this machine has.
		cmd.Env = append(cmd.Env, "HOME="+home, "CLIMATED_TEST_INSTALLED="+filepath.Join(home, "none.yaml")+string(os.PathListSeparator)+home)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("%s: %v\n%s", cmdLine, err, out)
			continue
		}
		if got := strings.ReplaceAll(string(out), exe, readmeExe); got != want {
			t.Errorf("%s prints something other than the README shows:\n--- README\n%s--- climated\n%s", cmdLine, want, got)
		}
		remote := slices.Contains(args, "--remote")
		seen[args[1]+map[bool]string{true: " remote", false: " local"}[remote]] = true
	}
	for _, id := range clientIDs() {
		for _, where := range []string{" local", " remote"} {
			if !seen[id+where] {
				t.Errorf("the README has no recipe for %s%s", id, where)
			}
		}
	}
}

// TestUsageListsNewCommands: climated --help names connect and the
// bridge, and their own help shows how to call them.
func TestUsageListsNewCommands(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--help"}, []string{"\n  connect ", "home-assistant", "bridge to a hub's /mcp"}},
		{[]string{"mcp", "--help"}, []string{"--remote URL", "--token-file FILE"}},
		{[]string{"connect", "--help"}, []string{"climated connect CLIENT", "--write"}},
	} {
		out, err := climated(c.args...).Output()
		for _, want := range c.want {
			if err != nil || !strings.Contains(string(out), want) {
				t.Errorf("climated %v does not say %q: %v\n%s", c.args, want, err, out)
			}
		}
	}
}
