package connect

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/config"
)

// TestSnippetsAreJSON: every snippet is JSON in the client's shape, for
// the hub on this machine and for one beyond it.
func TestSnippetsAreJSON(t *testing.T) {
	for _, c := range clients {
		for _, remote := range []string{"", "http://hub.local:8473/mcp"} {
			tg, err := NewTarget(config.Default(), "", remote, "climated")
			if err != nil {
				t.Fatal(err)
			}
			if c.Entry == nil {
				continue
			}
			js, err := c.snippet(tg)
			var m map[string]json.RawMessage
			var servers map[string]any
			if err != nil || json.Unmarshal(js, &m) != nil || json.Unmarshal(m[c.Key], &servers) != nil || servers["climated"] == nil {
				t.Errorf("%s %q: %v\n%s", c.ID, remote, err, js)
			}
		}
	}
}

// go run ./cmd/climated connect claude-desktop wrote a path in
// Go's build directory into the client's configuration. connect refuses
// it, saying what to run; the paths of real binaries pass.
func TestConnectRefusesGoRun(t *testing.T) {
	t.Setenv("GOCACHE", "/home/you/.cache/go-build")
	for exe, want := range map[string]bool{
		"/tmp/go-build1475976356/b001/exe/climated":        true,
		"/home/you/.cache/go-build/3f/3f2a-d/climated":     true,
		"/usr/bin/climated":                                false,
		"/home/you/go/bin/climated":                        false,
		"/tmp/go-build3785613307/b001/climated.test":       false, // go test's binary (these tests)
		"/home/you/src/climated/climated":                  false,
		"/home/you/.cache/go-build-not-the-cache/climated": false,
	} {
		if got := fromGoRun(exe); got != want {
			t.Errorf("fromGoRun(%s) = %v, want %v", exe, got, want)
		}
	}
	err := errGoRun("/tmp/go-build1/b001/exe/climated")
	for _, want := range []string{"go build -o climated ./cmd/climated && ./climated connect", "go install ./cmd/climated"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, err)
		}
	}
}
