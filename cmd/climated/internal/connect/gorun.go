package connect

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// goRunDir matches the executable of `go run`: $TMPDIR/go-build…/b001/exe/.
var goRunDir = regexp.MustCompile(`/go-build[0-9]+/b[0-9]+/exe/[^/]+$`)

// fromGoRun reports whether exe was built by `go run`, in a directory
// that is deleted when it exits, or in Go's build cache, which Go trims:
// a client configured to start it would one day find nothing.
func fromGoRun(exe string) bool {
	if goRunDir.MatchString(exe) {
		return true
	}
	cache := os.Getenv("GOCACHE")
	if cache == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			cache = filepath.Join(dir, "go-build")
		}
	}
	return cache != "" && strings.HasPrefix(exe, cache+string(filepath.Separator))
}

// errGoRun says what to run instead of `go run ./cmd/climated connect`.
func errGoRun(exe string) error {
	return fmt.Errorf("this climated runs from Go's build directory (%s), which is gone once go run exits: a client configured to start it would find nothing. Build it first, then connect with the binary: go build -o climated ./cmd/climated && ./climated connect …, or go install ./cmd/climated (the binary is then ~/go/bin/climated)", exe)
}
