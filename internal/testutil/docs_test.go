package testutil

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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

// forDevelopers are what a user document must not carry: a test's name
// (a benchmark's only in the go test -bench command that runs it), an
// issue of this project (an upstream one is owner/repo#N, which a reader
// can open), a seed document, or a machine of ours ("this machine has no
// internet").
var forDevelopers = regexp.MustCompile(`\b(Test|Fuzz|Benchmark)[A-Z][A-Za-z0-9_]*|(^|[^/\w])[Ii]ssues? #?\d+|(^|\s)#\d+\b|has no internet|(?i:\bthis machine (has no|had no|cannot|can't|lacks|does not|doesn't)\b|\b(test|build|CI) machine\b|\bseed 0\d\d\b)`)

// internalPath is a path into one of the module's internal packages,
// which a user neither imports nor needs: `internal/uplot`,
// `cmd/climated/internal/metrics/units.go`. A picture the document shows
// may live there (a link is not in backquotes), and a command may name
// one (`go test -bench . ./mcp/internal/wire`: the path is a word of it).
var internalPath = regexp.MustCompile("`[^`\\s]*\\binternal/[^`]*`")

// goName is a Go name in backquotes, package.Name: `front.scopeGate`,
// `climate.Live.Snapshot`, `config.Hosts`. A configuration key
// (`station.name`, `offsets.temperature`) is in lower case throughout.
var goName = regexp.MustCompile("`([a-z][a-z0-9]*)\\.([A-Za-z]\\w*)[^`]*`")

// userDocs are the documents for the people who run climated: DocFiles
// but the developers' ones, and the changelog, which tells users what
// changed.
func userDocs(t *testing.T) []string {
	var files []string
	for _, f := range DocFiles(t) {
		if !developerDocs[f] {
			files = append(files, f)
		}
	}
	return append(files, "CHANGELOG.md")
}

// goPackages are the names of the module's Go packages, by their
// directories.
func goPackages(t *testing.T) map[string]bool {
	root := Root(t)
	pkgs := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			pkgs[filepath.Base(filepath.Dir(path))] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// TestUserDocsSpeakToUsers: no user document names a test, an issue of
// this project, a test machine or the code's internals (an internal
// package, a Go function or type); those belong in docs/development.md.
func TestUserDocsSpeakToUsers(t *testing.T) {
	pkgs := goPackages(t)
	for _, f := range userDocs(t) {
		for i, line := range strings.Split(Doc(t, f), "\n") {
			for _, name := range forDevelopersIn(line, pkgs) {
				t.Errorf("%s:%d names %s, which is for developers (docs/development.md): %s", f, i+1, name, strings.TrimSpace(line))
			}
		}
	}
}

// forDevelopersIn is what line names that is for developers, as an
// error message says it.
func forDevelopersIn(line string, pkgs map[string]bool) []string {
	var names []string
	for _, m := range forDevelopers.FindAllString(line, -1) {
		m = strings.TrimLeftFunc(m, func(r rune) bool { return !unicode.IsLetter(r) && r != '#' })
		if !strings.HasPrefix(m, "Benchmark") || !strings.Contains(line, "go test -bench") {
			names = append(names, strconv.Quote(m))
		}
	}
	for _, m := range internalPath.FindAllString(line, -1) {
		names = append(names, "the internal package "+m)
	}
	for _, m := range goName.FindAllStringSubmatch(line, -1) {
		if pkgs[m[1]] && strings.ToLower(m[2]) != m[2] {
			names = append(names, "the Go name "+m[0])
		}
	}
	return names
}

// TestForDevelopersIn: what the check of the user documents finds, and
// what it lets through.
func TestForDevelopersIn(t *testing.T) {
	pkgs := map[string]bool{"front": true, "climate": true, "station": true}
	for _, c := range []struct {
		line string
		want int
	}{
		{"back (`TestPrometheusScrapesHubs` restarts a hub)", 1},
		{"`FuzzScopeGate` (60 s in CI) and BenchmarkIngest", 2},
		{"`go test -bench BenchmarkFront ./mcp/internal/wire`", 0}, // a command to run
		{"> **In progress (issue 30).** The hub", 1},
		{"- Weather (issues #30 and 31)", 1},
		{"This machine has no internet, so neither tunnel runs", 1},
		{"as in seed 003", 1},
		{"the gate (`front.scopeGate`), `climate.Live.Snapshot`", 2},
		{"one script, `internal/weathercard`, and `cmd/climated/internal/metrics/units.go`", 2},
		// What a user may read.
		{"an open pull request (zitadel/oidc#955)", 0},
		{"`station.name` changes `Station`; `offsets.temperature`", 0},
		{"# Claude Desktop → this machine's hub", 0},
		{"![The dashboard](cmd/climated/internal/dash/testdata/dashboard.png)", 0},
		{"`ui.resourceUri`, `originRequest.httpHostHeader`", 0},
	} {
		if got := forDevelopersIn(c.line, pkgs); len(got) != c.want {
			t.Errorf("%q: found %q, want %d", c.line, got, c.want)
		}
	}
}
