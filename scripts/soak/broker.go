package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// broker is a mosquitto of the soak's own on loopback, with persistence so
// that a restart keeps the hub's queued session, as a house's broker would.
type broker struct {
	bin, dir string
	port     int
	cmd      *exec.Cmd
	restarts int
}

// maxQueued is the broker's queue per offline client (mosquitto's default
// is 1000): the hub is down for seconds at 50 messages a second, and held
// acknowledgements during a full disk queue up too.
const maxQueued = 100000

func newBroker(bin, dir string) (*broker, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	b := &broker{bin: bin, dir: dir, port: port}
	// user root: started as root, mosquitto would otherwise become the
	// mosquitto user, which cannot write its persistence into this
	// directory, and a restart would forget the hub's session.
	conf := fmt.Sprintf("user root\nlistener %d 127.0.0.1\nallow_anonymous true\npersistence true\npersistence_location %s/\nmax_queued_messages %d\nlog_dest file %s\n",
		port, dir, maxQueued, filepath.Join(dir, "mosquitto.log"))
	if err := os.WriteFile(filepath.Join(dir, "mosquitto.conf"), []byte(conf), 0o600); err != nil {
		return nil, err
	}
	return b, b.start()
}

func (b *broker) addr() string { return fmt.Sprintf("127.0.0.1:%d", b.port) }

func (b *broker) start() error {
	b.cmd = exec.Command(b.bin, "-c", filepath.Join(b.dir, "mosquitto.conf"))
	if err := b.cmd.Start(); err != nil {
		return fmt.Errorf("start mosquitto: %w", err)
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if c, err := net.Dial("tcp", b.addr()); err == nil {
			c.Close()
			return nil
		}
	}
	return fmt.Errorf("mosquitto did not listen on %s", b.addr())
}

func (b *broker) stop() {
	if b.cmd == nil || b.cmd.Process == nil {
		return
	}
	b.cmd.Process.Signal(syscall.SIGTERM)
	b.cmd.Wait()
	b.cmd = nil
}

// restart stops the broker for down, then starts it again.
func (b *broker) restart(down time.Duration) error {
	b.stop()
	time.Sleep(down)
	b.restarts++
	return b.start()
}
