package testutil

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

var (
	mdLink  = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading = regexp.MustCompile(`(?m)^#{1,6} (.+)$`)
)

// TestDocs: every document's code fences are balanced (the README tests
// find blocks by splitting at them), and every link from one document to
// a file of the repository, or to a heading, leads somewhere.
func TestDocs(t *testing.T) {
	root := Root(t)
	files := DocFiles(t)
	if len(files) < 5 {
		t.Fatalf("found %v: want README.md and the docs/ reference", files)
	}
	for _, f := range files {
		text := Doc(t, f)
		if n := strings.Count(text, "```"); n%2 != 0 {
			t.Errorf("%s: %d code fences, an odd number", f, n)
		}
		for _, m := range mdLink.FindAllStringSubmatch(outsideFences(text), -1) {
			if err := checkLink(root, f, m[1]); err != "" {
				t.Errorf("%s: link %s: %s", f, m[1], err)
			}
		}
	}
}

// outsideFences is text without its fenced blocks.
func outsideFences(text string) string {
	parts := strings.Split(text, "```")
	var out strings.Builder
	for i := 0; i < len(parts); i += 2 {
		out.WriteString(parts[i])
	}
	return out.String()
}

// checkLink says what is wrong with link in the document from, or "".
func checkLink(root, from, link string) string {
	if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
		return ""
	}
	path, anchor, _ := strings.Cut(link, "#")
	target := from
	if path != "" {
		target = filepath.Join(filepath.Dir(from), path)
	}
	data, err := os.ReadFile(filepath.Join(root, target))
	if err != nil {
		if _, statErr := os.Stat(filepath.Join(root, target)); statErr == nil {
			return "" // a directory or another readable kind of thing
		}
		return "no such file " + target
	}
	if anchor == "" {
		return ""
	}
	for _, h := range heading.FindAllStringSubmatch(outsideFences(string(data)), -1) {
		if slug(h[1]) == anchor {
			return ""
		}
	}
	return "no heading #" + anchor + " in " + target
}

// slug is the anchor GitHub gives a heading: lower case, spaces to
// hyphens, and only letters, digits, hyphens and underscores kept.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// developerDocs are the documents for the people who work on climated:
// they may name tests, issues and internals. Every other document of
// DocFiles is for the people who run it.
var developerDocs = map[string]bool{"docs/development.md": true, "docs/performance.md": true}

// forDevelopers are what a user document must not carry: a test's name,
// an issue of this project (an upstream one is owner/repo#N), a machine
// of ours ("this machine has no internet").
var forDevelopers = regexp.MustCompile(`\b(Test|Fuzz)[A-Z][A-Za-z0-9_]*|(^|[^/\w])[Ii]ssues? #?\d+|(^|\s)#\d+\b|has no internet|seed 00\d`)

// TestUserDocsSpeakToUsers: no user document names a test, an issue of
// this project or a test machine; those belong in docs/development.md.
func TestUserDocsSpeakToUsers(t *testing.T) {
	for _, f := range DocFiles(t) {
		if developerDocs[f] {
			continue
		}
		for i, line := range strings.Split(Doc(t, f), "\n") {
			if m := forDevelopers.FindString(line); m != "" {
				t.Errorf("%s:%d names %q, which is for developers (docs/development.md): %s", f, i+1, strings.TrimSpace(m), line)
			}
		}
	}
}
