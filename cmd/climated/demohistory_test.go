package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
)

// demoConfig is testConfig on a database that already holds a day of the
// demo house (demoHistory): for tests of a running hub with the default
// configuration whose point is not its first start.
func demoConfig(t *testing.T) config.Config {
	t.Helper()
	cfg := testConfig(t)
	demoHistory(t, cfg.Database)
	return cfg
}

// demoHistory puts at path a copy of a day of the demo house's history,
// recorded once per test binary by a real climated serve with the default
// configuration. A hub started on it fills in only the minutes since, where
// on an empty database it first fills in a whole day: 14 s of every such
// test under -race, which made the first start most of the package's time.
// The first start itself stays tested where it is the point
// (TestSIGTERMFlushesHistory, TestREADMEStartupLog and the tests that start
// on nothing or on a history of their own).
func demoHistory(t *testing.T, path string) {
	t.Helper()
	src, err := demoFixture()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil { // as the hub makes it
		t.Fatal(err)
	}
	for _, suffix := range []string{"", "-wal"} {
		if err := copyFile(src+suffix, path+suffix); err != nil && !(suffix != "" && errors.Is(err, os.ErrNotExist)) {
			t.Fatal(err)
		}
	}
}

var fixture struct {
	once sync.Once
	dir  string
	db   string
	err  error
}

// demoFixture records the day once: climated serve on an empty database
// until it serves (the fill is done), then SIGTERM. TestMain removes it.
func demoFixture() (string, error) {
	fixture.once.Do(func() {
		fixture.dir, fixture.err = os.MkdirTemp("", "climated-demo-history-")
		if fixture.err != nil {
			return
		}
		fixture.db = filepath.Join(fixture.dir, "climated.db")
		fixture.err = recordDemoDay(fixture.db)
	})
	return fixture.db, fixture.err
}

func recordDemoDay(db string) error {
	cmd := climated("serve", "--listen", "127.0.0.1:0", "--db", db)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	defer cmd.Process.Kill()
	watchdog := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
	defer watchdog.Stop()
	var log strings.Builder
	lines := bufio.NewScanner(stderr)
	serving := false
	for !serving && lines.Scan() {
		log.WriteString(lines.Text() + "\n")
		serving = servingURL.MatchString(lines.Text())
	}
	if !serving {
		return fmt.Errorf("the demo history's hub never served:\n%s", log.String())
	}
	cmd.Process.Signal(syscall.SIGTERM)
	go io.Copy(io.Discard, stderr)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("the demo history's hub after SIGTERM: %w\n%s", err, log.String())
	}
	return nil
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	info, err := os.Stat(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, info.Mode().Perm())
}
