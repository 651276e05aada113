package mqtt

import (
	"io"
	"net"
	"sync"
	"testing"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"

	"github.com/climated/climated/internal/testutil"
)

// The brokers of the tests: mochi in process, mosquitto as a process of
// its own, and a TCP proxy that can break connections.

// startMochi runs an in-process broker on a free loopback port and
// returns it with its URL.
func startMochi(t testing.TB) (*mochi.Server, string) {
	t.Helper()
	srv, addr := testutil.LoopbackBroker(t)
	return srv, "tcp://" + addr
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
