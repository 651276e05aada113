package main

import (
	"bufio"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
)

// vmBinary is Debian's victoria-metrics: the test is skipped where it is
// missing, and fails under CI, where scripts/test.sh installs it.
func vmBinary(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("victoria-metrics")
	if err != nil {
		testutil.RequireInCI(t, "victoria-metrics is missing (%v): apt-get install -y victoria-metrics (scripts/test.sh does)", err)
	}
	return p
}

// vmServer is a VictoriaMetrics the test runs on a loopback port of its
// own with its data in a temporary directory; stop and start keep both,
// as an outage of the store would.
type vmServer struct {
	t     *testing.T
	bin   string
	addr  string
	dir   string
	args  []string
	cmd   *exec.Cmd
	out   *testutil.Buffer
	ended chan error
	// user and pass are what it asks of every request (-httpAuth.*); ""
	// for none.
	user, pass string
}

// startVM runs victoria-metrics with args added until the test ends.
func startVM(t *testing.T, user, pass string) *vmServer {
	t.Helper()
	v := &vmServer{t: t, bin: vmBinary(t), addr: freeAddr(t), dir: t.TempDir(), out: &testutil.Buffer{}, user: user, pass: pass}
	if user != "" {
		v.args = []string{"-httpAuth.username=" + user, "-httpAuth.password=" + pass}
	}
	v.start()
	t.Cleanup(func() {
		v.stop()
		if t.Failed() {
			t.Logf("victoria-metrics said:\n%s", v.out.String())
		}
	})
	return v
}

// freeAddr is a loopback address with a port free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func (v *vmServer) url() string { return "http://" + v.addr }

// start starts the server (again) and waits until it answers.
func (v *vmServer) start() {
	v.t.Helper()
	v.cmd = exec.Command(v.bin, append([]string{"-httpListenAddr=" + v.addr, "-storageDataPath=" + v.dir,
		"-retentionPeriod=10y", "-loggerLevel=ERROR", "-search.latencyOffset=0s"}, v.args...)...)
	v.cmd.Stdout, v.cmd.Stderr = v.out, v.out
	v.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // never outlives the test binary
	if err := v.cmd.Start(); err != nil {
		v.t.Fatal(err)
	}
	v.ended = make(chan error, 1)
	go func(c *exec.Cmd, ended chan error) { ended <- c.Wait() }(v.cmd, v.ended)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if resp, err := v.get("/health"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case err := <-v.ended:
			v.t.Fatalf("victoria-metrics exited: %v\n%s", err, v.out.String())
		default:
		}
		if time.Now().After(deadline) {
			v.t.Fatalf("victoria-metrics not ready within 30 s:\n%s", v.out.String())
		}
	}
}

// stop stops the server with SIGTERM, as systemctl stop would; a second
// stop does nothing.
func (v *vmServer) stop() {
	if v.cmd == nil {
		return
	}
	v.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-v.ended:
	case <-time.After(20 * time.Second):
		v.cmd.Process.Kill()
		<-v.ended
		v.t.Error("victoria-metrics did not stop within 20 s of SIGTERM")
	}
	v.cmd = nil
}

// get is a GET of path, with the server's credentials.
func (v *vmServer) get(path string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodGet, v.url()+path, nil)
	if err != nil {
		return nil, err
	}
	if v.user != "" {
		req.SetBasicAuth(v.user, v.pass)
	}
	return http.DefaultClient.Do(req)
}

// exported is one series of VictoriaMetrics' /api/v1/export: its labels
// and its raw samples, as stored.
type exported struct {
	Metric     map[string]string
	Values     []float64
	Timestamps []int64 // milliseconds
}

// export is every series match selects, with every sample stored (after
// making what it took searchable).
func (v *vmServer) export(match string) []exported {
	v.t.Helper()
	if resp, err := v.get("/internal/force_flush"); err == nil {
		resp.Body.Close()
	}
	resp, err := v.get("/api/v1/export?" + url.Values{"match[]": {match}}.Encode())
	if err != nil {
		v.t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		v.t.Fatalf("export %s: %s", match, resp.Status)
	}
	defer resp.Body.Close()
	var out []exported
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var e exported
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			v.t.Fatalf("export %s: %v: %s", match, err, sc.Text())
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b exported) int {
		if a.Metric["zone"] < b.Metric["zone"] {
			return -1
		}
		if a.Metric["zone"] > b.Metric["zone"] {
			return 1
		}
		return 0
	})
	return out
}
