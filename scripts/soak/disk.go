package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"github.com/climated/climated/history"
)

// disk is the directory of the hub's database: a small tmpfs of its own
// where the soak may mount one (root), so that it can be filled to the
// last byte and freed again.
type disk struct {
	dir     string
	mounted bool
}

func newDisk(dir string) *disk {
	d := &disk{dir: dir}
	os.MkdirAll(dir, 0o700)
	if err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256m,mode=0700", "tmpfs", dir).Run(); err == nil {
		d.mounted = true
	}
	return d
}

func (d *disk) filler() string { return filepath.Join(d.dir, "filler") }

// fill writes until the file system has no byte left.
func (d *disk) fill() error {
	if !d.mounted {
		return errors.New("no tmpfs (needs root): disk-full episode skipped")
	}
	f, err := os.Create(d.filler())
	if err != nil {
		return err
	}
	defer f.Close()
	for _, size := range []int{1 << 20, 4 << 10, 1} {
		buf := make([]byte, size)
		for {
			if _, err := f.Write(buf); err != nil {
				if errors.Is(err, syscall.ENOSPC) {
					break
				}
				return fmt.Errorf("fill: %w", err)
			}
		}
	}
	return nil
}

func (d *disk) free() { os.Remove(d.filler()) }

// checkpointTruncate empties the WAL of the database at path, beside the
// running hub (busy_timeout waits for its writer).
func checkpointTruncate(path string) error {
	db, err := history.OpenSQLite("file:" + path + "?_pragma=busy_timeout(5000)")
	if err != nil {
		return err
	}
	defer db.Close()
	var busy, log, done int
	if err := db.QueryRow("PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &log, &done); err != nil {
		return err
	}
	if busy != 0 {
		return errors.New("the checkpoint was blocked")
	}
	return nil
}

func (d *disk) close() {
	if d.mounted {
		exec.Command("umount", "-l", d.dir).Run()
	}
}
