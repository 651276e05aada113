package sensors_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Imports go one way: the hub (history, mcp, cmd) uses the sensors, never
// the other way, and that holds for the sensors' tests too, which test
// against sensors/internal/sinktest rather than the hub above them
// (issue 27). A test that wants the real history belongs to the history's
// tests or cmd's.
func TestSensorsImportNothingAbove(t *testing.T) {
	above := []string{"github.com/climated/climated/history", "github.com/climated/climated/mcp", "github.com/climated/climated/mqtt", "github.com/climated/climated/cmd"}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for _, a := range above {
				if p == a || strings.HasPrefix(p, a+"/") {
					t.Errorf("sensors/%s imports %s, above the sensors", path, p)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
