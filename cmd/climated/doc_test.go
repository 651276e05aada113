package main

import (
	"os"
	"strings"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/cli"
)

// TestDocListsEveryCommand: the package documentation names every command
// of the help, so that it cannot fall behind again.
func TestDocListsEveryCommand(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cli.Commands {
		if !strings.Contains(string(doc), "//\tclimated "+c.Name) {
			t.Errorf("doc.go does not list \"climated %s\"", c.Name)
		}
	}
}
