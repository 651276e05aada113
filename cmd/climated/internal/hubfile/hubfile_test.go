package hubfile

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRead: the file is the hub's word only while a hub answers at its
// URL; a file left by a killed hub, a port another program holds, or a
// file that is not the hub's are none.
func TestRead(t *testing.T) {
	db := filepath.Join(t.TempDir(), "climated.db")
	if err := os.WriteFile(db, nil, 0o600); err != nil { // the hub's database, whose owner the file must have
		t.Fatal(err)
	}
	hub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/healthz" {
			w.WriteHeader(http.StatusServiceUnavailable) // serving, with a problem: still the hub
		}
	}))
	defer hub.Close()
	other := httptest.NewServer(http.NotFoundHandler())
	defer other.Close()

	remove, err := Write(Info{URL: hub.URL, Listen: strings.TrimPrefix(hub.URL, "http://"), Database: db, Token: true})
	if err != nil {
		t.Fatal(err)
	}
	if info, ok := Read(db); !ok || !info.Token || info.URL != hub.URL {
		t.Errorf("a hub that answers: %+v %v", info, ok)
	}
	if _, err := Write(Info{URL: other.URL, Database: db}); err != nil {
		t.Fatal(err)
	}
	if _, ok := Read(db); ok {
		t.Error("a port another program holds was taken for the hub")
	}
	os.WriteFile(Path(db), []byte(`{"url":"`+hub.URL+`","pad":"`+strings.Repeat("x", maxSize)+`"}`), 0o644)
	if _, ok := Read(db); ok {
		t.Error("a file over the size bound was read")
	}
	remove()
	if _, ok := Read(db); ok {
		t.Error("read after remove")
	}
}
