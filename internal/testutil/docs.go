package testutil

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Root is the module's root: the nearest directory above the test's
// working directory that holds go.mod.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// DocFiles are the documents whose examples tests hold true: README.md,
// then every docs/*.md, as paths relative to the module's root.
func DocFiles(t testing.TB) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(Root(t), "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"README.md"}
	for _, d := range docs {
		files = append(files, filepath.Join("docs", filepath.Base(d)))
	}
	return files
}

// Doc is the text of one document, by its path from the module's root.
func Doc(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(Root(t), path))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// Docs is the text of every document of DocFiles, one after the other.
// Each file's code fences are balanced (TestDocs checks it), so a test
// that splits the text at ``` finds the blocks of every file at the odd
// places, wherever a block moves.
func Docs(t testing.TB) string {
	t.Helper()
	var all strings.Builder
	for _, f := range DocFiles(t) {
		all.WriteString(Doc(t, f))
		all.WriteString("\n")
	}
	return all.String()
}
