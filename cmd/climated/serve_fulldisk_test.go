package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/testutil"
)

// servedProcess is a climated serve process and its log.
type servedProcess struct {
	cmd    *exec.Cmd
	base   string // http://127.0.0.1:PORT
	mu     sync.Mutex
	log    strings.Builder
	exited chan error
}

func (p *servedProcess) logged() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

// startServed runs climated with args until it says where it serves.
func startServed(t *testing.T, args ...string) *servedProcess {
	t.Helper()
	p := &servedProcess{cmd: climated(args...), exited: make(chan error, 1)}
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.cmd.Process.Kill() })
	url := make(chan string, 1)
	go func() {
		lines := bufio.NewScanner(stderr)
		for lines.Scan() {
			p.mu.Lock()
			p.log.WriteString(lines.Text() + "\n")
			p.mu.Unlock()
			if m := servingURL.FindStringSubmatch(lines.Text()); m != nil {
				url <- strings.TrimSuffix(m[1], "/mcp")
			}
		}
		p.exited <- p.cmd.Wait()
	}()
	select {
	case p.base = <-url:
		return p
	case err := <-p.exited:
		t.Fatalf("climated %s exited before serving: %v\n%s", strings.Join(args, " "), err, p.logged())
	case <-time.After(60 * time.Second):
		t.Fatalf("climated %s: not serving within 60 s\n%s", strings.Join(args, " "), p.logged())
	}
	return nil
}

// stop ends the process with SIGTERM, as systemctl stop does.
func (p *servedProcess) stop(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.exited:
		if err != nil {
			t.Fatalf("exit: %v\n%s", err, p.logged())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("no exit within 20 s of SIGTERM\n%s", p.logged())
	}
}

// health is /healthz's status code and problems.
func (p *servedProcess) health(t *testing.T) (int, []string) {
	t.Helper()
	resp, err := http.Get(p.base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct{ Problems []string }
	json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, body.Problems
}

// A hub whose SD card filled up, restarted (a reboot), used to exit with
// "the file system … is full": an assistant asking how warm it is got
// nothing. Now the process starts on the full disk, answers get_climate
// and get_history from what it recorded, /healthz and the log say the
// disk is full (the log once), and once space is freed what arrived
// meanwhile reaches the disk.
func TestServeOnFullDisk(t *testing.T) {
	t.Parallel() // its own disk and hub; mostly waits for the writer's retries
	dir := testutil.MountSmall(t, "16m")
	db, filler := filepath.Join(dir, "climated.db"), filepath.Join(dir, "filler")
	conf := filepath.Join(t.TempDir(), "climated.yaml")
	if err := os.WriteFile(conf, []byte("commit_interval: 1s\ndemo:\n  enabled: true\n  interval: 1s\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"serve", "--config", conf, "--listen", "127.0.0.1:0", "--db", db}
	// A day of the demo house on disk, then the disk fills up.
	demoHistory(t, db)
	startServed(t, args...).stop(t)
	testutil.FillUp(t, filler)

	p := startServed(t, args...)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "full-disk", Version: "1"}, nil).Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: p.base + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "get_climate", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("get_climate on a full disk: %v %+v", err, res)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var c map[string]map[string]any
	if err := json.Unmarshal(raw, &c); err != nil || c["Indoor"]["Temperature"] == nil {
		t.Errorf("get_climate on a full disk: %s (%v)", raw, err)
	}
	res, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "get_history", Arguments: map[string]any{"zone": "Indoor", "measurement": "Temperature"}})
	if err != nil || res.IsError {
		t.Fatalf("get_history on a full disk: %v %+v", err, res)
	}
	var hist history.Series
	raw, _ = json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &hist); err != nil || hist.Summary.Count < 1000 {
		t.Errorf("get_history on a full disk counts %d readings, want the day recorded (%v)", hist.Summary.Count, err)
	}

	// The demo house records every second; its first flush fails.
	var code int
	var problems []string
	if !testutil.Eventually(func() bool {
		code, problems = p.health(t)
		return code == http.StatusServiceUnavailable && len(problems) > 0 && strings.Contains(problems[0], "is full")
	}) {
		t.Fatalf("/healthz on a full disk: %d %v\n%s", code, problems, p.logged())
	}
	t.Logf("/healthz: %v", problems)
	// Retries at 1, 2 and 4 s: the log says it once.
	time.Sleep(4 * time.Second)
	if n := strings.Count(p.logged(), "the file system holding the history is full"); n != 1 {
		t.Errorf("the log says the disk is full %d times, want once:\n%s", n, p.logged())
	}

	os.Remove(filler)
	if !testutil.EventuallyWithin(45*time.Second, func() bool { code, problems = p.health(t); return code == http.StatusOK }) {
		t.Fatalf("/healthz after freeing space: %d %v\n%s", code, problems, p.logged())
	}
	res, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "get_climate", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("get_climate: %v %+v", err, res)
	}
	raw, _ = json.Marshal(res.StructuredContent)
	json.Unmarshal(raw, &c)
	served := int64(num(c["Indoor"]["When"]))
	cs.Close()
	p.stop(t)
	if !strings.Contains(p.logged(), "writing history again") {
		t.Errorf("the log does not say writing works again:\n%s", p.logged())
	}
	// What was served while the disk was full is on disk now.
	s, err := history.OpenReadOnly(context.Background(), db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	ws, err := s.Windows(context.Background(), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	var newest int64
	for _, w := range ws {
		if w.Zone == "Indoor" && len(w.Points) > 0 {
			newest = max(newest, w.Points[len(w.Points)-1].T)
		}
	}
	if newest < served {
		t.Errorf("the newest Indoor reading on disk is at %d, the hub served one at %d", newest, served)
	}
}
