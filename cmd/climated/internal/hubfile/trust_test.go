package hubfile

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteFollowsNoSymlink (found by an adversarial pass): whoever may create
// files beside the database (a group-writable state directory, a --db in
// a shared directory) plants <db>.hub.json.tmp as a symlink to a file of
// the hub's user; Write wrote its JSON through it, clobbering that file.
func TestWriteFollowsNoSymlink(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "climated.db")
	victim := filepath.Join(dir, "precious")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, Path(db)+".tmp"); err != nil {
		t.Fatal(err)
	}
	remove, err := Write(Info{URL: "http://127.0.0.1:1", Database: db})
	if err == nil {
		defer remove()
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Errorf("Write wrote through a planted symlink; the file it pointed at now holds:\n%s", b)
	}
}

// TestReadTrustsNoOtherUsersFile (found by an adversarial pass): a hub file
// owned by another user than the database's (who could create it in a
// shared directory, e.g. --db /tmp/climated.db, where the hub's own
// rename over it then fails) pointing at that user's server answering
// /healthz is believed: connect then hands the client the token file for
// the other user's URL. Needs root to give the file another owner.
func TestReadTrustsNoOtherUsersFile(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to chown the file to another user")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "climated.db")
	if err := os.WriteFile(db, nil, 0o600); err != nil { // the owner's database
		t.Fatal(err)
	}
	attacker := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer attacker.Close()
	if _, err := Write(Info{URL: attacker.URL, Database: db, Token: true}); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(Path(db), 65534, 65534); err != nil { // nobody
		t.Fatal(err)
	}
	if info, ok := Read(db); ok {
		t.Errorf("a hub file owned by another user than the database's is believed: %+v", info)
	}
	// The same file reached through a symlink of the other user's.
	if err := os.Rename(Path(db), filepath.Join(dir, "elsewhere.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "elsewhere.json"), Path(db)); err != nil {
		t.Fatal(err)
	}
	os.Lchown(Path(db), 65534, 65534)
	if info, ok := Read(db); ok {
		t.Errorf("a hub file that is a symlink of another user's is believed: %+v", info)
	}
}
