package testutil

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/hooks/auth"
	"github.com/mochi-mqtt/server/v2/listeners"
)

// Broker runs an in-process MQTT broker (mochi) on the listener l until
// the test ends, with hook and its config (nil: anyone may connect), and
// an inline client for the test to publish with.
func Broker(t testing.TB, l listeners.Listener, hook mochi.Hook, config any) *mochi.Server {
	t.Helper()
	srv := mochi.New(&mochi.Options{InlineClient: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if hook == nil {
		hook = new(auth.AllowHook)
	}
	if err := srv.AddHook(hook, config); err != nil {
		t.Fatal(err)
	}
	if err := srv.AddListener(l); err != nil {
		t.Fatal(err)
	}
	go srv.Serve()
	t.Cleanup(func() { srv.Close() })
	return srv
}

// LoopbackBroker runs an in-process broker that lets anyone in on a free
// loopback port until the test ends, and returns it with its address
// (host:port).
func LoopbackBroker(t testing.TB) (*mochi.Server, string) {
	t.Helper()
	tcp := listeners.NewTCP(listeners.Config{ID: "tcp", Address: "127.0.0.1:0"})
	return Broker(t, tcp, nil, nil), tcp.Address()
}

// FreePort is a loopback port that nothing listens on (it was free a
// moment ago).
func FreePort(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}

// MosquittoPath is where Debian installs the broker; CI installs it, so a
// test that needs it fails rather than skips without it.
const MosquittoPath = "/usr/sbin/mosquitto"

// Mosquitto is Debian's broker in a process of its own, for tests that
// restart it or need its limits.
type Mosquitto struct {
	t    testing.TB
	port string
	conf string
	log  string
	cmd  *exec.Cmd
	// exited receives the process's end; only the goroutine started by
	// Start waits for it.
	exited chan error
}

// NewMosquitto prepares a broker on a free loopback port, stopped at the
// end of the test; extra are more lines of its configuration.
func NewMosquitto(t testing.TB, extra ...string) *Mosquitto {
	t.Helper()
	if _, err := os.Stat(MosquittoPath); err != nil {
		t.Fatalf("this test needs Debian's mosquitto at %s (apt-get install -y mosquitto; scripts/test.sh installs it): %v", MosquittoPath, err)
	}
	dir := t.TempDir()
	m := &Mosquitto{t: t, port: FreePort(t), conf: filepath.Join(dir, "mosquitto.conf"), log: filepath.Join(dir, "mosquitto.log")}
	conf := fmt.Sprintf("listener %s 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest file %s\nlog_type all\n", m.port, m.log) +
		strings.Join(extra, "\n") + "\n"
	if err := os.WriteFile(m.conf, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Stop)
	return m
}

// URL is the broker's, tcp://127.0.0.1:port.
func (m *Mosquitto) URL() string { return "tcp://127.0.0.1:" + m.port }

// Start runs the broker and waits until it accepts connections.
func (m *Mosquitto) Start() {
	m.t.Helper()
	cmd := exec.Command(MosquittoPath, "-c", m.conf)
	if err := cmd.Start(); err != nil {
		m.t.Fatalf("start mosquitto: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	m.cmd, m.exited = cmd, exited
	deadline := time.Now().Add(Patience)
	for {
		conn, err := net.DialTimeout("tcp", "127.0.0.1:"+m.port, 100*time.Millisecond)
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

// Stop ends the broker and waits for it.
func (m *Mosquitto) Stop() {
	if m.cmd == nil {
		return
	}
	m.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-m.exited:
	case <-time.After(Patience):
		m.cmd.Process.Kill()
		<-m.exited
	}
	m.cmd = nil
}

// MQTTClient connects a plain paho client (a device, an observer) to
// broker as id, a fresh one when "", and disconnects it at the end of the
// test.
func MQTTClient(t testing.TB, broker, id string) paho.Client {
	t.Helper()
	if id == "" {
		id = fmt.Sprintf("device-%d", time.Now().UnixNano())
	}
	o := paho.NewClientOptions().AddBroker(broker).SetClientID(id).
		SetConnectTimeout(5 * time.Second).SetMaxReconnectInterval(50 * time.Millisecond)
	c := paho.NewClient(o)
	if tok := c.Connect(); !tok.WaitTimeout(Patience) || tok.Error() != nil {
		t.Fatalf("connect %s to %s: %v", id, broker, tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(50) })
	return c
}
