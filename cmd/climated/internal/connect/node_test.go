package connect

import (
	"strings"
	"testing"
)

// TestNodeAdvice: the Inspector's engines (node >=22.19.0, its
// package.json at 2.12.0) against what `node --version` prints.
func TestNodeAdvice(t *testing.T) {
	for v, wantAdvice := range map[string]bool{
		"v20.20.2": true, "v22.18.9": true, "v18.19.0": true, "": true, "nonsense": true, "v22.x.1": true,
		"v22.19.0": false, "v22.20.1": false, "v23.0.0": false, "v24.11.0": false,
	} {
		if got := nodeAdvice(v); (got != "") != wantAdvice {
			t.Errorf("node %q: advice %q, want advice %v", v, got, wantAdvice)
		}
	}
	if got := nodeAdvice("v20.20.2"); !strings.Contains(got, "v20.20.2") || !strings.Contains(got, "22.19") {
		t.Errorf("advice %q names neither the Node found nor the one needed", got)
	}
}

// TestInspectorNotesSayNodeFirst: the Inspector's recipe begins with the
// advice when this machine's Node is too old, and has none when it is not.
func TestInspectorNotesSayNodeFirst(t *testing.T) {
	saved := NodeVersion
	defer func() { NodeVersion = saved }()
	var inspector Client
	for _, c := range clients {
		if c.ID == "inspector" {
			inspector = c
		}
	}
	target := Target{Name: "climated", Remote: true, URL: "http://127.0.0.1:8473/mcp"}
	NodeVersion = func() string { return "v20.20.2" }
	if lines := inspector.Notes(target); !strings.Contains(lines[0], "v20.20.2") {
		t.Errorf("Node 20: the recipe begins %q", lines[0])
	}
	NodeVersion = func() string { return "v22.19.0" }
	if lines := inspector.Notes(target); !strings.HasPrefix(lines[0], "Start it with") {
		t.Errorf("Node 22.19: the recipe begins %q", lines[0])
	}
}

// TestNeedsPublicNamesTheHubsFile: without a public_url, the steps name
// the file the hub runs from and how that hub restarts: a user's own
// hub, its file and climated serve again; the installed service,
// /etc/climated/climated.yaml and systemctl.
func TestNeedsPublicNamesTheHubsFile(t *testing.T) {
	own := strings.Join(needsPublic(Target{Here: true, OwnHub: true, ConfigFile: "/home/you/.config/climated/climated.yaml"}, "Claude"), "\n")
	if !strings.Contains(own, "in /home/you/.config/climated/climated.yaml:") || strings.Contains(own, "systemctl") || !strings.Contains(own, "climated serve again") {
		t.Errorf("a user's own hub:\n%s", own)
	}
	installed := strings.Join(needsPublic(Target{Here: true}, "Claude"), "\n")
	if !strings.Contains(installed, "in /etc/climated/climated.yaml:") || !strings.Contains(installed, "sudo systemctl restart climated") {
		t.Errorf("the installed hub:\n%s", installed)
	}
}
