// Command funlen lists the functions of the Go files below a directory
// (tests and node_modules left out) that are longer than a limit, one line
// each: "LINES path:line name". It exits 1 when it listed any.
//
// Usage: go run ./scripts/funlen [-max 60] DIR...
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	limit := flag.Int("max", 60, "the most lines a function may have")
	flag.Parse()
	found := 0
	for _, dir := range flag.Args() {
		n, err := walk(dir, *limit)
		if err != nil {
			fmt.Fprintln(os.Stderr, "funlen:", err)
			os.Exit(2)
		}
		found += n
	}
	if found > 0 {
		os.Exit(1)
	}
}

// walk prints the functions longer than limit in the Go files below dir
// and returns how many there were.
func walk(dir string, limit int) (int, error) {
	fset := token.NewFileSet()
	found := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && p != dir:
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go"):
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			if n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1; n > limit {
				fmt.Printf("%d %s %s\n", n, fset.Position(fn.Pos()), fn.Name.Name)
				found++
			}
		}
		return nil
	})
	return found, err
}
