package testutil

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// ourIssue is how a comment names what a reader of the repository cannot
// open: this project's issues and the seed documents it began from. An
// upstream issue is named as owner/repo#N, which a reader can open.
var ourIssue = regexp.MustCompile(`(?i)\bissues? #?\d+|\bseed 0\d\d\b|\bthe issue(?:'s| asks| sets| says)`)

// TestCommentsNameNoIssue: no code comment names an issue of this project
// or a seed document; a comment says what happened, or names a public
// reference (a datasheet, an RFC, an upstream issue).
func TestCommentsNameNoIssue(t *testing.T) {
	root := Root(t)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		for _, g := range f.Comments {
			for _, c := range g.List {
				if m := ourIssue.FindString(c.Text); m != "" {
					rel, _ := filepath.Rel(root, path)
					t.Errorf("%s:%d: a comment names %q, which a reader cannot open: say what happened", rel, fset.Position(c.Pos()).Line, m)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
