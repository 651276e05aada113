// Package hubfile is what a running hub says about itself to the
// commands run beside it (connect, doctor, station): a small JSON file
// beside its database, written once it serves and removed when it stops.
// A command that finds it, and a hub answering at its URL, uses the
// hub's own word for its address, token and public URL instead of
// guessing them from a configuration the hub may have been started
// without (serve --listen, --db).
package hubfile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// Info is what the hub says about itself.
type Info struct {
	PID       int    `json:"pid"`
	URL       string `json:"url"`    // where a command on this machine reaches it: http://127.0.0.1:8473
	Listen    string `json:"listen"` // the address it listens on, as bound (port 0 resolved)
	Token     bool   `json:"token"`  // every request needs the bearer token
	PublicURL string `json:"public_url,omitempty"`
	Config    string `json:"config,omitempty"` // the configuration file it read; "" for none
	Database  string `json:"database"`
}

// Path is the file beside the database at db.
func Path(db string) string { return db + ".hub.json" }

// maxSize bounds what Read reads: the file is a few hundred bytes.
const maxSize = 4 << 10

// Write writes info beside its database, readable by the commands of
// other users (it holds no secret: the token stays in its own file), and
// returns a function that removes it. The file is written under a new
// random name and renamed into place, so that nothing planted beside the
// database (a symlink) is written through.
func Write(info Info) (remove func(), err error) {
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return nil, err
	}
	p := Path(info.Database)
	tmp, err := os.CreateTemp(filepath.Dir(p), filepath.Base(p)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("hub file: %w", err)
	}
	_, werr := tmp.Write(append(b, '\n'))
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), 0o644), os.Rename(tmp.Name(), p)); err != nil {
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("hub file: %w", err)
	}
	return func() { os.Remove(p) }, nil
}

// Read is what the hub of the database at db says about itself, when a
// hub answers at the URL it wrote. It believes only a file, not a
// symlink, owned by the database's owner: someone else who could create
// files beside the database could otherwise point the commands (and the
// token file they hand a client) at a server of theirs. A file left by a
// hub that was killed, or a port taken since by another program, is no
// word of a hub either.
func Read(db string) (Info, bool) {
	f, err := os.OpenFile(Path(db), os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return Info{}, false
	}
	defer f.Close()
	if !sameOwner(f, db) {
		return Info{}, false
	}
	var info Info
	dec := json.NewDecoder(io.LimitReader(f, maxSize)) // a larger file is cut and fails to decode
	if err := dec.Decode(&info); err != nil || info.URL == "" {
		return Info{}, false
	}
	return info, answers(info.URL)
}

// sameOwner reports whether f, a regular file, belongs to the owner of
// the database at db.
func sameOwner(f *os.File, db string) bool {
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	di, err := os.Stat(db)
	if err != nil {
		return false
	}
	fs, ok1 := fi.Sys().(*syscall.Stat_t)
	ds, ok2 := di.Sys().(*syscall.Stat_t)
	return ok1 && ok2 && fs.Uid == ds.Uid
}

// answers reports whether a climated hub answers at base: /healthz says
// 200 (healthy) or 503 (serving, with a problem), within a second.
func answers(base string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/healthz", nil)
	if err != nil {
		return false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusServiceUnavailable
}
