package history

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// LockedError is returned by Open when another process (a running hub)
// already writes the database: one writer per file, so that two never
// store the same reading twice or race each other's series.
type LockedError struct {
	Path string // the database
	Lock string // the lock file beside it
	PID  int    // the holder, as it wrote itself into the lock file; 0 if unknown
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("%s is in use by another climated (%s, holding %s): stop it (systemctl stop climated) or choose another --db",
		e.Path, e.Holder(), e.Lock)
}

// Holder names the process that holds the lock, for messages.
func (e *LockedError) Holder() string {
	if e.PID <= 0 {
		return "PID unknown"
	}
	return "PID " + strconv.Itoa(e.PID)
}

// lockDB takes the writer's lock of the database at path: flock(2) on
// "<path>.lock". The kernel drops it when its holder dies, SIGKILL
// included, so it never goes stale, and the file is left in place when the
// hub stops: removing it would let a late comer lock a file nobody else
// sees. OpenReadOnly never takes it.
func lockDB(path string) (*os.File, error) {
	name := path + ".lock"
	// Two names of one file (a symbolic link) share one lock.
	if real, err := filepath.EvalSymlinks(path); err == nil {
		name = real + ".lock"
	}
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock file: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		pid := readPID(f)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &LockedError{Path: path, Lock: name, PID: pid}
		}
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	// The PID is there for the message of whoever comes second; a disk
	// too full to take it must not keep the hub from starting. Written
	// over the previous one before the rest is cut, it needs no new block
	// on a full disk.
	pid := []byte(strconv.Itoa(os.Getpid()) + "\n")
	if _, err := f.WriteAt(pid, 0); err == nil {
		f.Truncate(int64(len(pid)))
	}
	return f, nil
}

func readPID(f *os.File) int {
	buf := make([]byte, 32)
	n, err := f.ReadAt(buf, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	return pid
}

// checkPath makes path's directory and refuses what cannot be a database
// written there, before a lock file appears beside it; it returns the
// absolute path.
func checkPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o750); err != nil {
		return "", fmt.Errorf("create database directory: %w", err)
	}
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
		return "", fmt.Errorf("%s is a directory, not a database file", abs)
	}
	const wOK = 2 // access(2)'s W_OK
	if err := syscall.Access(filepath.Dir(abs), wOK); errors.Is(err, syscall.EROFS) {
		return "", fmt.Errorf("the file system of %s is mounted read-only: the history needs to write there", filepath.Dir(abs))
	}
	return abs, nil
}
