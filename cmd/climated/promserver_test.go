package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
)

// promBinary is Debian's prometheus or promtool: the test is skipped
// where it is missing, and fails under CI, where scripts/test.sh
// installs it.
func promBinary(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		testutil.RequireInCI(t, "%s is missing (%v): apt-get install -y prometheus (scripts/test.sh does)", name, err)
	}
	return p
}

// scrapeJob is one hub in the Prometheus configuration the tests write.
type scrapeJob struct {
	name, target string
	tokenFile    string // "" for a hub on loopback, which wants none
}

// scrapeConfig is a configuration that scrapes every job each second,
// as docs/prometheus.md shows it (a token file per job that needs one).
func scrapeConfig(jobs []scrapeJob) string {
	var b strings.Builder
	b.WriteString("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n")
	for _, j := range jobs {
		fmt.Fprintf(&b, "  - job_name: %s\n", j.name)
		if j.tokenFile != "" {
			fmt.Fprintf(&b, "    authorization:\n      credentials_file: %s\n", j.tokenFile)
		}
		fmt.Fprintf(&b, "    static_configs:\n      - targets: [%q]\n", j.target)
	}
	return b.String()
}

// promServer is a Prometheus the test started, at base.
type promServer struct{ base string }

// startPrometheus runs prometheus on a free loopback port with a
// configuration for jobs and its database in a temporary directory,
// until the test ends, and waits until it is ready.
func startPrometheus(t *testing.T, bin string, jobs []scrapeJob) promServer {
	t.Helper()
	return startPrometheusWith(t, bin, scrapeConfig(jobs))
}

// startPrometheusWith is startPrometheus with a configuration of the
// test's own and more flags.
func startPrometheusWith(t *testing.T, bin, conf string, flags ...string) promServer {
	t.Helper()
	dir := t.TempDir()
	config := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(config, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var out testutil.Buffer
	cmd := exec.Command(bin, append([]string{"--config.file=" + config, "--storage.tsdb.path=" + filepath.Join(dir, "data"),
		"--web.listen-address=" + addr, "--log.level=warn"}, flags...)...)
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // never outlives the test binary
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
			t.Error("prometheus did not stop within 10 s of SIGTERM")
		}
		if t.Failed() {
			t.Logf("prometheus said:\n%s", out.String())
		}
	})
	p := promServer{base: "http://" + addr}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if resp, err := http.Get(p.base + "/-/ready"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p
			}
		}
		select {
		case err := <-exited:
			t.Fatalf("prometheus exited: %v\n%s", err, out.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("prometheus not ready within 30 s:\n%s", out.String())
		}
	}
}

// api is a GET of path of p's HTTP API with v: its data, decoded into
// data; anything but a success fails the test.
func (p promServer) api(t *testing.T, path string, v url.Values, data any) {
	t.Helper()
	resp, err := http.Get(p.base + path + "?" + v.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var r struct {
		Status string
		Data   json.RawMessage
	}
	if err := json.Unmarshal(body, &r); err != nil || r.Status != "success" || json.Unmarshal(r.Data, data) != nil {
		t.Fatalf("%s%s %v: %v %s", p.base, path, v, err, body)
	}
}

// promSample is one element of an instant vector.
type promSample struct {
	Metric map[string]string
	Time   string // as Prometheus gives it: Unix seconds with milliseconds
	Value  float64
}

// query evaluates q through Prometheus' HTTP API, at the time at (Unix
// seconds) or now when at is "".
func (p promServer) query(t *testing.T, q, at string) []promSample {
	t.Helper()
	v := url.Values{"query": {q}}
	if at != "" {
		v.Set("time", at)
	}
	var r struct {
		Result []struct {
			Metric map[string]string
			Value  [2]json.RawMessage
		}
	}
	p.api(t, "/api/v1/query", v, &r)
	var out []promSample
	for _, s := range r.Result {
		var val string
		json.Unmarshal(s.Value[1], &val)
		f, err := strconv.ParseFloat(val, 64)
		if err != nil {
			t.Fatalf("query %s: value %s: %v", q, s.Value[1], err)
		}
		out = append(out, promSample{Metric: s.Metric, Time: string(s.Value[0]), Value: f})
	}
	return out
}

// one is the single sample q gives now, waiting (up to 30 s) until there
// is one and ok accepts it; it fails the test with why otherwise.
func (p promServer) one(t *testing.T, q string, ok func(promSample) (bool, string)) promSample {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	why := "no sample"
	for {
		if got := p.query(t, q, ""); len(got) == 1 {
			good, w := ok(got[0])
			if good {
				return got[0]
			}
			why = w
		} else if len(got) > 1 {
			t.Fatalf("%s: %d samples, want one: %+v", q, len(got), got)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s within 30 s: %s", q, why)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
