package mqtt

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// sessionFile serialises what the sessions of this process do to one
// session file. A reload runs two clients on it at once: the old one
// journals while the new one opens it, and a burst of reloads overlaps
// several. A rewrite reads the file and renames a new one over it; an
// append that came between the two would land in the replaced file and be
// lost, so appends and rewrites take turns.
type sessionFile struct {
	mu sync.Mutex
	// owner is the client id of the file's header as last written here.
	// A reload that changes client_id hands the file to the new id; the
	// old client's journal belongs to a broker session no longer used, and
	// its appends and rewrites leave the file alone.
	owner string
}

// sessionFiles are the session files opened in this process, by absolute
// path. Process-wide, like the file itself: two Clients know nothing of
// each other.
var sessionFiles = struct {
	mu    sync.Mutex
	files map[string]*sessionFile
}{files: make(map[string]*sessionFile)}

// sessionFileAt returns the one sessionFile of path.
func sessionFileAt(path string) *sessionFile {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	sessionFiles.mu.Lock()
	defer sessionFiles.mu.Unlock()
	f, ok := sessionFiles.files[path]
	if !ok {
		f = &sessionFile{}
		sessionFiles.files[path] = f
	}
	return f
}

// tempPattern names replaceFile's temporary files beside path.
func tempPattern(path string) string { return filepath.Base(path) + ".*.tmp" }

// replaceFile writes data to a temporary file of its own beside path and
// renames it over path: all or nothing, and no other writer's temporary
// file in the way.
func replaceFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, tempPattern(path)) // mode 0600
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err // os's errors name the files
	}
	return nil
}

// removeLeftovers removes the temporary files of rewrites a crash cut
// short; the caller holds path's lock, so none is being written.
func removeLeftovers(path string) {
	dir, base := filepath.Split(path)
	entries, _ := os.ReadDir(filepath.Clean(dir))
	for _, e := range entries {
		if name := e.Name(); e.Type().IsRegular() && strings.HasPrefix(name, base+".") && strings.HasSuffix(name, ".tmp") {
			os.Remove(filepath.Join(dir, name))
		}
	}
}
