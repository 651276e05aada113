package history

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// lockChild is the test binary as a second hub: with HISTORY_LOCK_DB set
// it opens that database, says "open PID" and holds it until stdin ends.
func lockChild(path string) {
	s, err := Open(context.Background(), path, nil)
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(1)
	}
	fmt.Println("open", os.Getpid())
	bufio.NewReader(os.Stdin).ReadString('\n')
	s.Close(context.Background())
}

// checkLocked checks that err refuses a second writer of path and names
// the holder's PID and what to do.
func checkLocked(t *testing.T, err error, path string, pid int) {
	t.Helper()
	var le *LockedError
	if !errors.As(err, &le) {
		t.Fatalf("second Open of %s: %v, want a *LockedError", path, err)
	}
	if le.PID != pid {
		t.Errorf("LockedError.PID = %d, want %d", le.PID, pid)
	}
	for _, want := range []string{path, "PID " + strconv.Itoa(pid), "systemctl stop climated", "--db"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// TestSecondOpenIsRefused: a database has one writer; a read-only user
// works beside it, and once the writer closes another may open it.
func TestSecondOpenIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	ctx := context.Background()
	s := openTest(t, path, nil)
	s2, err := Open(ctx, path, nil)
	if err == nil {
		s2.Close(ctx)
	}
	checkLocked(t, err, path, os.Getpid())
	ro, err := OpenReadOnly(ctx, path, nil)
	if err != nil {
		t.Fatalf("read-only beside the writer: %v", err)
	}
	ro.Close(ctx)
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	openTest(t, path, nil)
}

// TestLockHeldByAnotherProcess: a second process is refused with the first
// one's PID while a read-only open works beside it; once the first is
// killed with SIGKILL the lock is gone with it.
func TestLockHeldByAnotherProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	ctx := context.Background()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "HISTORY_LOCK_DB="+path)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != fmt.Sprintf("open %d\n", cmd.Process.Pid) {
		t.Fatalf("the first process says %q (%v)", line, err)
	}
	s, err := Open(ctx, path, nil)
	if err == nil {
		s.Close(ctx)
	}
	checkLocked(t, err, path, cmd.Process.Pid)
	ro, err := OpenReadOnly(ctx, path, nil)
	if err != nil {
		t.Fatalf("read-only beside the first process: %v", err)
	}
	ro.Close(ctx)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	openTest(t, path, nil)
}
