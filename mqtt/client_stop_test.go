package mqtt

import (
	"context"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/eclipse/paho.mqtt.golang/packets"

	"github.com/climated/climated/internal/testutil"
)

// A reload stops the old client whenever it comes, also while it waits
// for the broker to confirm its subscriptions: that cancellation is
// planned, and no error (issue 26 saw four "mqtt: subscribe failed …
// context canceled" ERROR lines at every reload).
func TestStopWhileSubscribingLogsNoError(t *testing.T) {
	m := testutil.NewMosquitto(t)
	m.Start()
	p := newSubackDropper(t, strings.TrimPrefix(m.URL(), "tcp://"))
	log := &testutil.Buffer{}
	opts := fastOptions(p.url(), "climated/stopsub")
	opts.Logger = slog.New(slog.NewTextHandler(multiWriter{log, tWriter{t}}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := newClient(t, opts)
	for _, f := range []string{"zigbee2mqtt/+", "shellies/+/status", "tele/+/SENSOR", "homeassistant/status"} {
		if err := c.Subscribe(f, 1, func(Message) {}); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	select {
	case <-p.subscribing:
	case <-time.After(testutil.Patience):
		t.Fatal("the client sent no SUBSCRIBE")
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(testutil.Patience):
		t.Fatal("Run did not return after its context ended")
	}
	for _, line := range strings.Split(log.String(), "\n") {
		if strings.Contains(line, "level=ERROR") || strings.Contains(line, "level=WARN") && strings.Contains(line, "context canceled") {
			t.Errorf("a planned stop logged %s", line)
		}
	}
}

// subackDropper is a TCP proxy to a broker that passes every MQTT packet on
// but the broker's SUBACKs: the client's subscriptions never complete.
// subscribing receives once the client has sent a SUBSCRIBE.
type subackDropper struct {
	ln          net.Listener
	target      string
	subscribing chan struct{}
}

func newSubackDropper(t testing.TB, target string) *subackDropper {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &subackDropper{ln: ln, target: target, subscribing: make(chan struct{}, 1)}
	go p.serve()
	t.Cleanup(func() { ln.Close() })
	return p
}

func (p *subackDropper) url() string { return "tcp://" + p.ln.Addr().String() }

func (p *subackDropper) serve() {
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
		go p.pass(in, out, func(cp packets.ControlPacket) bool {
			if _, ok := cp.(*packets.SubscribePacket); ok {
				signal(p.subscribing)
			}
			return true
		})
		go p.pass(out, in, func(cp packets.ControlPacket) bool {
			_, suback := cp.(*packets.SubackPacket)
			return !suback
		})
	}
}

// pass copies the packets from src that keep says to keep to dst, until
// either side closes.
func (p *subackDropper) pass(src, dst net.Conn, keep func(packets.ControlPacket) bool) {
	defer src.Close()
	defer dst.Close()
	for {
		cp, err := packets.ReadPacket(src)
		if err != nil {
			return
		}
		if keep(cp) {
			if err := cp.Write(dst); err != nil {
				return
			}
		}
	}
}
