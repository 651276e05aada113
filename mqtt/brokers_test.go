package mqtt

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/hooks/auth"
	"github.com/mochi-mqtt/server/v2/listeners"
	"github.com/mochi-mqtt/server/v2/packets"

	"github.com/climated/climated/internal/testutil"
)

// The brokers of the tests: mochi in process, mosquitto as a process of
// its own, and a TCP proxy that can break connections.

// startMochi runs an in-process broker on a free loopback port.
func startMochi(t testing.TB) (*mochi.Server, string) {
	t.Helper()
	srv := mochi.New(&mochi.Options{InlineClient: true, Logger: discard()})
	if err := srv.AddHook(new(auth.AllowHook), nil); err != nil {
		t.Fatal(err)
	}
	tcp := listeners.NewTCP(listeners.Config{ID: "tcp", Address: "127.0.0.1:0"})
	if err := srv.AddListener(tcp); err != nil {
		t.Fatal(err)
	}
	go srv.Serve()
	t.Cleanup(func() { srv.Close() })
	return srv, "tcp://" + tcp.Address()
}

// capture records what the broker delivers for a filter.
type capture struct {
	mu   sync.Mutex
	msgs []Message
}

func captureOn(t testing.TB, srv *mochi.Server, filter string, id int) *capture {
	t.Helper()
	c := &capture{}
	err := srv.Subscribe(filter, id, func(_ *mochi.Client, _ packets.Subscription, pk packets.Packet) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.msgs = append(c.msgs, Message{Topic: pk.TopicName, Payload: append([]byte(nil), pk.Payload...), Retained: pk.FixedHeader.Retain, QoS: pk.FixedHeader.Qos})
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// last returns the latest message on topic.
func (c *capture) last(topic string) (Message, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(c.msgs) - 1; i >= 0; i-- {
		if c.msgs[i].Topic == topic {
			return c.msgs[i], true
		}
	}
	return Message{}, false
}

func (c *capture) count(topic string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, m := range c.msgs {
		if m.Topic == topic {
			n++
		}
	}
	return n
}

// freePort finds a loopback port nobody listens on.
func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// mosquittoPath is where Debian installs the broker; CI installs it, so a
// test that needs it fails rather than skips without it.
const mosquittoPath = "/usr/sbin/mosquitto"

// mosquitto is a broker in a process of its own, for restarts.
type mosquitto struct {
	t    testing.TB
	port int
	conf string
	log  string
	cmd  *exec.Cmd
	// exited receives the process's end; only the goroutine started by
	// start waits for it.
	exited chan error
}

// newMosquitto prepares a broker on a free loopback port; extra are more
// lines of its configuration.
func newMosquitto(t testing.TB, extra ...string) *mosquitto {
	t.Helper()
	if _, err := os.Stat(mosquittoPath); err != nil {
		t.Fatalf("this test needs Debian's mosquitto at %s (apt-get install -y mosquitto; scripts/test.sh installs it): %v", mosquittoPath, err)
	}
	dir := t.TempDir()
	m := &mosquitto{t: t, port: freePort(t), conf: filepath.Join(dir, "mosquitto.conf"), log: filepath.Join(dir, "mosquitto.log")}
	conf := fmt.Sprintf("listener %d 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest file %s\nlog_type all\n", m.port, m.log) +
		strings.Join(extra, "\n") + "\n"
	if err := os.WriteFile(m.conf, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.stop)
	return m
}

func (m *mosquitto) url() string { return fmt.Sprintf("tcp://127.0.0.1:%d", m.port) }

// start runs the broker and waits until it accepts connections.
func (m *mosquitto) start() {
	m.t.Helper()
	cmd := exec.Command(mosquittoPath, "-c", m.conf)
	if err := cmd.Start(); err != nil {
		m.t.Fatalf("start mosquitto: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	m.cmd, m.exited = cmd, exited
	deadline := time.Now().Add(waitTimeout)
	for {
		conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", m.port), 100*time.Millisecond)
		if err == nil {
			conn.Close()
			return
		}
		select {
		case err := <-exited:
			m.cmd = nil
			log, _ := os.ReadFile(m.log)
			m.t.Fatalf("mosquitto exited: %v\n%s", err, log)
		default:
		}
		if time.Now().After(deadline) {
			m.t.Fatal("mosquitto does not accept connections")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// stop ends the broker and waits for it.
func (m *mosquitto) stop() {
	if m.cmd == nil {
		return
	}
	m.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-m.exited:
	case <-time.After(waitTimeout):
		m.cmd.Process.Kill()
		<-m.exited
	}
	m.cmd = nil
}

// waitSubscribed waits until some client of srv subscribes to a filter
// that topic matches.
func waitSubscribed(t testing.TB, srv *mochi.Server, topic string) {
	t.Helper()
	testutil.WaitFor(t, "a subscription to "+topic, func() bool {
		return len(srv.Topics.Subscribers(topic).Subscriptions) > 0
	})
}

// proxy forwards TCP connections to a broker and can cut them all, the way
// a network failure does: without an MQTT DISCONNECT.
type proxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  []net.Conn
}

func newProxy(t testing.TB, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target}
	go p.serve()
	t.Cleanup(func() { ln.Close(); p.cut() })
	return p
}

func (p *proxy) url() string { return "tcp://" + p.ln.Addr().String() }

func (p *proxy) serve() {
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", p.target)
		if err != nil {
			in.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, in, out)
		p.mu.Unlock()
		go func() { io.Copy(out, in); out.Close() }()
		go func() { io.Copy(in, out); in.Close() }()
	}
}

func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}
