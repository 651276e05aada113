package testutil

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/climated/climated/"

// layers ranks the module's packages by folder, the longest prefix
// deciding: a package imports only from its own layer and those below it,
// towards the reading vocabulary (DESIGN.md, "The house as it stands").
var layers = map[string]int{
	"sensors":         0,
	"internal":        0, // helpers shared by every layer
	"mqtt/decode":     1,
	"history/climate": 1,
	"history":         2,
	"history/weewx":   2, // a weewx archive as rows for the history's import
	"history/alerts":  3,
	"mqtt":            4, // the broker client and its session journal
	"mqtt/internal":   4, // the mqtt packages' test helpers (clienttest imports the client)
	"mqtt/ingest":     5, // devices' readings from the client's subscriptions
	"mqtt/publish":    5, // the hub's zones and alerts, published through the client
	"history/hub":     6, // the composition the sources feed
	"mcp/transport":   7, // the MCP transports, beneath the features that they serve
	"mcp":             8,
	"cmd":             9,
	"scripts":         9,
}

// layer is dir's rank, or -1 when no prefix of layers covers it.
func layer(dir string) int {
	rank, best := -1, -1
	for prefix, r := range layers {
		if (dir == prefix || strings.HasPrefix(dir, prefix+"/")) && len(prefix) > best {
			rank, best = r, len(prefix)
		}
	}
	return rank
}

// goImports maps each .go file of the module, by its path from root, to
// the folders of the module's packages it imports.
func goImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	files := map[string][]string{}
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
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		files[rel] = nil
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); strings.HasPrefix(p, module) {
				files[rel] = append(files[rel], strings.TrimPrefix(p, module))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestNoImportUpward: no package imports one of a layer above its own,
// and no test imports a package that (through the code, not its tests)
// imports the package under test, so that every test stays at the level
// of what it tests. A test that needs the parts above belongs
// to their tests, or to cmd's.
func TestNoImportUpward(t *testing.T) {
	files := goImports(t, Root(t))
	deps := map[string][]string{} // package folder → what its code imports
	for f, imps := range files {
		if !strings.HasSuffix(f, "_test.go") {
			deps[filepath.Dir(f)] = append(deps[filepath.Dir(f)], imps...)
		}
	}
	for f, imps := range files {
		dir := filepath.Dir(f)
		if layer(dir) < 0 {
			t.Errorf("%s: package %s has no layer: add it to layers", f, dir)
			continue
		}
		for _, p := range imps {
			switch {
			case layer(p) > layer(dir):
				t.Errorf("%s imports %s, of a layer above %s's", f, p, dir)
			case p != dir && strings.HasSuffix(f, "_test.go") && reaches(deps, p, dir):
				t.Errorf("%s imports %s, which imports %s: a test above its package", f, p, dir)
			}
		}
	}
}

// reaches reports whether from's code imports to, directly or not.
func reaches(deps map[string][]string, from, to string) bool {
	seen := map[string]bool{}
	var walk func(string) bool
	walk = func(p string) bool {
		if p == to {
			return true
		}
		if seen[p] {
			return false
		}
		seen[p] = true
		for _, q := range deps[p] {
			if walk(q) {
				return true
			}
		}
		return false
	}
	return walk(from)
}
