package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/climated/climated/scripts/internal/proc"
)

// writeConfig writes the hub's configuration into dir: loopback on a port
// the kernel picks, the database in dir, no demo house, the house's time
// zone and place.
func writeConfig(dir, tz string) (config, db string, err error) {
	db = filepath.Join(dir, "climated.db")
	config = filepath.Join(dir, "climated.yaml")
	text := fmt.Sprintf("listen: 127.0.0.1:0\ndatabase: %s\ndemo: {enabled: false}\ndiscovery: false\ntimezone: %s\n"+
		"location: {latitude: %g, longitude: %g}\n", db, tz, latitude, longitude)
	return config, db, os.WriteFile(config, []byte(text), 0o600)
}

// importStats is what climated import did with the house.
type importStats struct {
	Took    time.Duration `json:"-"`
	Seconds float64       `json:"seconds"`
	PerSec  float64       `json:"rows_per_second"`
	DBBytes int64         `json:"database_bytes"`
}

// importHouse runs climated import of csv into config's database.
func importHouse(bin, config, db, csv string, readings int64) (importStats, error) {
	start := time.Now()
	out, err := exec.Command(bin, "import", "--config", config, csv).CombinedOutput()
	took := time.Since(start)
	if err != nil {
		return importStats{}, fmt.Errorf("climated import: %v\n%s", err, out)
	}
	st := importStats{Took: took, Seconds: took.Seconds(), PerSec: float64(readings) / took.Seconds()}
	for _, f := range []string{db, db + "-wal"} {
		if fi, err := os.Stat(f); err == nil {
			st.DBBytes += fi.Size()
		}
	}
	return st, nil
}

// token is the hub's bearer token, created beside the database if need be.
func token(bin, config string) (string, error) {
	out, err := exec.Command(bin, "token", "--config", config).Output()
	if err != nil {
		return "", fmt.Errorf("climated token: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// hub is a climated serve this program started.
type hub struct {
	cmd    *exec.Cmd
	url    string // its Streamable HTTP endpoint
	log    *bytes.Buffer
	exited chan struct{}
}

var servingLine = regexp.MustCompile(`msg="serving MCP" .*streamable_http=(http://\S+/mcp)`)

// serve starts climated serve with config and waits until it serves.
func serve(bin, config string) (*hub, error) {
	cmd := exec.Command(bin, "serve", "--config", config)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start climated: %w", err)
	}
	h := &hub{cmd: cmd, log: &bytes.Buffer{}, exited: make(chan struct{})}
	served := make(chan string, 1)
	go h.readLog(stderr, served)
	select {
	case h.url = <-served:
		return h, nil
	case <-h.exited:
		cmd.Wait()
		return nil, fmt.Errorf("climated exited before serving:\n%s", h.log)
	case <-time.After(2 * time.Minute):
		h.stop()
		return nil, fmt.Errorf("climated not serving within 2 minutes:\n%s", h.log)
	}
}

// readLog keeps the hub's log (its last lines tell why it failed) and
// hands on the endpoint once it serves.
func (h *hub) readLog(r io.Reader, served chan<- string) {
	defer close(h.exited)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if h.log.Len() < 1<<20 {
			h.log.WriteString(line + "\n")
		}
		if m := servingLine.FindStringSubmatch(line); m != nil {
			select {
			case served <- m[1]:
			default:
			}
		}
	}
}

// stop ends the hub with SIGTERM and waits for it.
func (h *hub) stop() error {
	h.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-h.exited:
	case <-time.After(30 * time.Second):
		h.cmd.Process.Kill()
		<-h.exited
	}
	return h.cmd.Wait()
}

// settle waits until the hub's CPU is idle, under a tenth of a core over
// a second, for at most limit: work a first start does on a year of
// history (filling what it keeps) would otherwise be timed with the
// answers. It returns how long it waited.
func (h *hub) settle(limit time.Duration) time.Duration {
	start := time.Now()
	prev := proc.CPU(h.cmd.Process.Pid)
	for time.Since(start) < limit {
		time.Sleep(time.Second)
		now := proc.CPU(h.cmd.Process.Pid)
		if now-prev < 100*time.Millisecond {
			break
		}
		prev = now
	}
	return time.Since(start)
}
