package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
)

// Layout is where an installed hub keeps its files: the configuration the
// unit passes to climated serve (systemd/climated.service) and its
// StateDirectory. Commands run beside the service read the same file, so
// that "climated mcp" on the hub finds the hub's database without flags.
type Layout struct {
	Config string // the service's --config
	State  string // the service's $STATE_DIRECTORY
}

// Installed is a variable so that tests point it at a temporary "hub"
// (TestMain sets it from CLIMATED_TEST_INSTALLED in the child process).
var Installed = Layout{Config: "/etc/climated/climated.yaml", State: "/var/lib/climated"}

// IsInstalledConfig: path is the service's own configuration file.
func (l Layout) IsInstalledConfig(path string) bool {
	a, err1 := filepath.Abs(path)
	b, err2 := filepath.Abs(l.Config)
	return err1 == nil && err2 == nil && a == b
}

// ExplainAccess turns a permission error on path (a database, a
// configuration file) into one that says how to get access: the file's
// group to join when the group may read it, else the owner to run as.
// cmd is the command line to suggest under sudo -u.
func ExplainAccess(path, cmd string, err error) error {
	if !errors.Is(err, fs.ErrPermission) {
		return err
	}
	// The file itself may be hidden behind a directory (0750): name the
	// nearest part of the path we can see.
	p := path
	var fi fs.FileInfo
	for {
		var serr error
		if fi, serr = os.Stat(p); serr == nil || p == filepath.Dir(p) {
			break
		}
		p = filepath.Dir(p)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if fi == nil || !ok {
		return fmt.Errorf("%w: run it as the user that owns %s (sudo -u climated %s)", err, path, cmd)
	}
	owner, group := strconv.Itoa(int(st.Uid)), strconv.Itoa(int(st.Gid))
	if u, err := user.LookupId(owner); err == nil {
		owner = u.Username
	}
	if g, err := user.LookupGroupId(group); err == nil {
		group = g.Name
	}
	what := fmt.Sprintf("%s belongs to %s:%s, mode %04o", p, owner, group, fi.Mode().Perm())
	groupReads := fi.Mode().Perm()&0o040 != 0 || (fi.IsDir() && fi.Mode().Perm()&0o010 != 0)
	if groupReads {
		return fmt.Errorf("%w (%s): join group %s with sudo usermod -aG %s $USER and log in again, or run it as %s: %s %s",
			err, what, group, group, owner, asUser(owner), cmd)
	}
	return fmt.Errorf("%w (%s): only %s may read it: run %s %s", err, what, owner, asUser(owner), cmd)
}

// CheckReadable opens path for reading, to say what to do before SQLite
// says "unable to open database file". Only a refusal is its business: a
// missing file is left to the history, which knows what to say.
func CheckReadable(path, cmd string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrPermission) {
		return ExplainAccess(path, cmd, err)
	}
	if err == nil {
		f.Close()
	}
	return nil
}

// asUser is the sudo that runs a command as user: plain sudo for root.
func asUser(user string) string {
	if user == "root" || user == "0" {
		return "sudo"
	}
	return "sudo -u " + user
}
