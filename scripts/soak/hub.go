package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/climated/climated/scripts/internal/proc"
)

// hub is the climated process under test, started again after each kill.
type hub struct {
	bin, config string

	mu      sync.Mutex
	cmd     *exec.Cmd
	base    string // http://host:port of the running process
	starts  int
	cpu     time.Duration // CPU of the processes that already ended
	lines   int           // log lines of every process
	byMsg   map[string]int
	logFile *os.File
	exited  chan struct{}
}

var servingLine = regexp.MustCompile(`msg="serving MCP" .*streamable_http=http://(\S+)/mcp`)
var msgField = regexp.MustCompile(`level=(\w+) msg=("[^"]*"|\S+)`)

func newHub(bin, config, logPath string) (*hub, error) {
	f, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	return &hub{bin: bin, config: config, byMsg: map[string]int{}, logFile: f}, nil
}

// start runs the hub and waits until it serves.
func (h *hub) start() error {
	cmd := exec.Command(h.bin, "serve", "--config", h.config)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start climated: %w", err)
	}
	served := make(chan string, 1)
	exited := make(chan struct{})
	go h.readLog(stderr, served, exited)
	select {
	case base := <-served:
		h.mu.Lock()
		h.cmd, h.base, h.exited = cmd, "http://"+base, exited
		h.starts++
		h.mu.Unlock()
		return nil
	case <-exited:
		cmd.Wait()
		return fmt.Errorf("climated exited before serving (log: %s)", h.logFile.Name())
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		return fmt.Errorf("climated not serving within 60 s (log: %s)", h.logFile.Name())
	}
}

func (h *hub) readLog(r io.Reader, served chan<- string, exited chan<- struct{}) {
	defer close(exited)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		h.mu.Lock()
		fmt.Fprintln(h.logFile, line)
		h.lines++
		if m := msgField.FindStringSubmatch(line); m != nil {
			h.byMsg[m[1]+" "+strings.Trim(m[2], `"`)]++
		}
		h.mu.Unlock()
		if m := servingLine.FindStringSubmatch(line); m != nil {
			select {
			case served <- m[1]:
			default:
			}
		}
	}
}

// url is the running hub's base URL ("" while it is down).
func (h *hub) url() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.base
}

func (h *hub) pid() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cmd == nil {
		return 0
	}
	return h.cmd.Process.Pid
}

// stop ends the process with sig and waits for it.
func (h *hub) stop(sig syscall.Signal) error {
	h.mu.Lock()
	cmd, exited := h.cmd, h.exited
	h.cmd, h.base = nil, ""
	h.mu.Unlock()
	if cmd == nil {
		return nil
	}
	cpu := proc.CPU(cmd.Process.Pid)
	cmd.Process.Signal(sig)
	<-exited
	err := cmd.Wait()
	h.mu.Lock()
	h.cpu += cpu
	h.mu.Unlock()
	if sig == syscall.SIGKILL {
		return nil
	}
	return err
}

// rss is the resident memory of pid in bytes.
func rss(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// goroutines reads go_goroutines from the hub's /metrics.
func goroutines(base string) int {
	if base == "" {
		return 0
	}
	c := http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(base + "/metrics")
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "go_goroutines "); ok {
			n, _ := strconv.ParseFloat(v, 64)
			return int(n)
		}
	}
	return 0
}
