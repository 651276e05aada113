package mcp

import (
	"context"
	"strings"
	"testing"
)

// FuzzRecordsURI reads records URIs of any shape from a real store: an
// answer or an error, never a panic, and an answer only for a zone the
// hub has.
func FuzzRecordsURI(f *testing.F) {
	for _, s := range []string{
		"climate://records/Indoor", "climate://records/Rain?since=24h", "climate://records/Indoor?since=2026-11-30",
		"climate://records/Attic", "climate://records/Indoor?from=1h", "climate://records/", "climate://records/%zz",
		"climate://records/Indoor/Temperature", "climate://records/Indoor?since=tomorrow",
	} {
		f.Add(s)
	}
	h := newTestHub(f)
	f.Fuzz(func(t *testing.T, uri string) {
		if !strings.HasPrefix(uri, "climate://records/") {
			return
		}
		res, err := h.srv.read(context.Background(), uri)
		if err == nil && (len(res) != 1 || !strings.Contains(res[0].Text, `"zone":"Indoor"`) && !strings.Contains(res[0].Text, `"zone":"Rain"`)) {
			t.Errorf("%s: %v", uri, res)
		}
	})
}
