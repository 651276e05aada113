package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/connect"
	"github.com/climated/climated/cmd/climated/internal/hubfile"
)

// TestConnectGivesNoTokenFileForAnotherUsersHubFile (found by an adversarial pass): another local user who can create <db>.hub.json (a database in a
// shared directory; a file the hub's own rename cannot replace there)
// points it at a server of theirs that answers /healthz. connect believed
// it and wrote the client's command with the owner's --token-file and the
// other user's URL: the client would send the owner's token there.
func TestConnectGivesNoTokenFileForAnotherUsersHubFile(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to chown the file to another user")
	}
	cfg := testConfig(t)
	if err := os.MkdirAll(filepath.Dir(cfg.Database), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg.TokenPath(), []byte("owners-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	attacker := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer attacker.Close()
	if _, err := hubfile.Write(hubfile.Info{URL: attacker.URL, Database: cfg.Database, Token: true}); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(hubfile.Path(cfg.Database), 65534, 65534); err != nil {
		t.Fatal(err)
	}
	target, err := connect.NewTarget(cfg, "", "", "climated")
	if err != nil {
		t.Fatal(err)
	}
	if target.URL == attacker.URL+"/mcp" {
		t.Errorf("connect points the client at the URL of another user's hub file (%s), token file %q, args %q", target.URL, target.TokenFile, target.Args)
	}
}
