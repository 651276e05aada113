package mqtt

import (
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	pahopk "github.com/eclipse/paho.mqtt.golang/packets"
	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"

	"github.com/climated/climated/internal/testutil"
)

// The brokers of the tests: mochi in process, mosquitto as a process of
// its own (both of testutil), and a TCP proxy that can break connections
// or drop packets.

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
// captureFrom records what a client of broker (any broker: mosquitto)
// receives for filter, retained messages included.
func captureFrom(t testing.TB, broker, filter string) *capture {
	t.Helper()
	c := &capture{}
	o := paho.NewClientOptions().AddBroker(broker).SetClientID(fmt.Sprintf("capture-%d", time.Now().UnixNano())).SetConnectTimeout(2 * time.Second)
	pc := paho.NewClient(o)
	if tok := pc.Connect(); !tok.WaitTimeout(testutil.Patience) || tok.Error() != nil {
		t.Fatalf("capture connect to %s: %v", broker, tok.Error())
	}
	t.Cleanup(func() { pc.Disconnect(0) })
	tok := pc.Subscribe(filter, 1, func(_ paho.Client, pm paho.Message) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.msgs = append(c.msgs, Message{Topic: pm.Topic(), Payload: append([]byte(nil), pm.Payload()...), Retained: pm.Retained(), QoS: pm.Qos()})
	})
	if !tok.WaitTimeout(testutil.Patience) || tok.Error() != nil {
		t.Fatalf("capture subscribe %s: %v", filter, tok.Error())
	}
	return c
}

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
	// keep, when set, makes the proxy read whole MQTT packets and pass on
	// those it keeps; up says the packet goes from the client to the
	// broker.
	keep  func(up bool, cp pahopk.ControlPacket) bool
	mu    sync.Mutex
	conns []net.Conn
}

func newProxy(t testing.TB, target string) *proxy {
	t.Helper()
	return newFilterProxy(t, target, nil)
}

// newFilterProxy is a proxy that passes on only the packets keep keeps.
func newFilterProxy(t testing.TB, target string, keep func(up bool, cp pahopk.ControlPacket) bool) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target, keep: keep}
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
		go p.pass(in, out, true)
		go p.pass(out, in, false)
	}
}

// pass copies src to dst until either side closes: all of it, or the
// packets that p.keep keeps.
func (p *proxy) pass(src, dst net.Conn, up bool) {
	defer src.Close()
	defer dst.Close()
	if p.keep == nil {
		io.Copy(dst, src)
		return
	}
	for {
		cp, err := pahopk.ReadPacket(src)
		if err != nil {
			return
		}
		if p.keep(up, cp) {
			if err := cp.Write(dst); err != nil {
				return
			}
		}
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
