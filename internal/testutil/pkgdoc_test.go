package testutil

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// screen is how many lines a package's doc comment may have: what the
// package is, its main types and functions, and where to start reading,
// as periph's packages say it (periph.io/x/devices/v3/bmxx80's doc.go is
// 37 lines, its comment 32). The why of a mechanism is the comment of the
// code it explains; reference material that does not fit is in
// docs/development.md or the user documents.
const screen = 40

// TestPackageDocsFitAScreen: every non-test Go file's package doc comment
// (the comment above its package clause) is at most a screen long.
func TestPackageDocsFitAScreen(t *testing.T) {
	root := Root(t)
	docs := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		if f.Doc == nil {
			return nil
		}
		docs++
		lines := fset.Position(f.Doc.End()).Line - fset.Position(f.Doc.Pos()).Line + 1
		if lines > screen {
			rel, _ := filepath.Rel(root, path)
			t.Errorf("%s: the package doc is %d lines, over a screen (%d): keep what the package is, its main types and where to start reading; move the why beside its code", rel, lines, screen)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if docs < 10 {
		t.Fatalf("found %d package docs: the walk missed the packages", docs)
	}
}
