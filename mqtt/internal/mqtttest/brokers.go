package mqtttest

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

// StartMochi runs an in-process broker on a free loopback port and
// returns it with its URL.
func StartMochi(t testing.TB) (*mochi.Server, string) {
	t.Helper()
	srv, addr := testutil.LoopbackBroker(t)
	return srv, "tcp://" + addr
}

// Received is a message a Capture saw.
type Received struct {
	Topic    string
	Payload  []byte
	Retained bool
	QoS      byte
}

// Capture records what the broker delivers for a filter.
type Capture struct {
	mu   sync.Mutex
	msgs []Received
}

// CaptureOn records what srv delivers for filter, through an inline
// subscription of id.
func CaptureOn(t testing.TB, srv *mochi.Server, filter string, id int) *Capture {
	t.Helper()
	c := &Capture{}
	err := srv.Subscribe(filter, id, func(_ *mochi.Client, _ packets.Subscription, pk packets.Packet) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.msgs = append(c.msgs, Received{Topic: pk.TopicName, Payload: append([]byte(nil), pk.Payload...), Retained: pk.FixedHeader.Retain, QoS: pk.FixedHeader.Qos})
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// CaptureFrom records what a client of broker (any broker: mosquitto)
// receives for filter, retained messages included.
func CaptureFrom(t testing.TB, broker, filter string) *Capture {
	t.Helper()
	c := &Capture{}
	o := paho.NewClientOptions().AddBroker(broker).SetClientID(fmt.Sprintf("capture-%d", time.Now().UnixNano())).SetConnectTimeout(2 * time.Second)
	pc := paho.NewClient(o)
	if tok := pc.Connect(); !tok.WaitTimeout(testutil.Patience) || tok.Error() != nil {
		t.Fatalf("capture connect to %s: %v", broker, tok.Error())
	}
	t.Cleanup(func() { pc.Disconnect(0) })
	tok := pc.Subscribe(filter, 1, func(_ paho.Client, pm paho.Message) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.msgs = append(c.msgs, Received{Topic: pm.Topic(), Payload: append([]byte(nil), pm.Payload()...), Retained: pm.Retained(), QoS: pm.Qos()})
	})
	if !tok.WaitTimeout(testutil.Patience) || tok.Error() != nil {
		t.Fatalf("capture subscribe %s: %v", filter, tok.Error())
	}
	return c
}

// Last returns the latest message on topic.
func (c *Capture) Last(topic string) (Received, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(c.msgs) - 1; i >= 0; i-- {
		if c.msgs[i].Topic == topic {
			return c.msgs[i], true
		}
	}
	return Received{}, false
}

// Count is the number of messages on topic.
func (c *Capture) Count(topic string) int {
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

// WaitSubscribed waits until some client of srv subscribes to a filter
// that topic matches.
func WaitSubscribed(t testing.TB, srv *mochi.Server, topic string) {
	t.Helper()
	testutil.WaitFor(t, "a subscription to "+topic, func() bool {
		return len(srv.Topics.Subscribers(topic).Subscriptions) > 0
	})
}

// Proxy forwards TCP connections to a broker and can cut them all, the way
// a network failure does: without an MQTT DISCONNECT.
type Proxy struct {
	ln     net.Listener
	target string
	// keep, when set, makes the proxy read whole MQTT packets and pass on
	// those it keeps; up says the packet goes from the client to the
	// broker.
	keep  func(up bool, cp pahopk.ControlPacket) bool
	mu    sync.Mutex
	conns []net.Conn
}

// NewProxy is a Proxy to target that passes on every byte.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	return NewFilterProxy(t, target, nil)
}

// NewFilterProxy is a proxy that passes on only the packets keep keeps.
func NewFilterProxy(t testing.TB, target string, keep func(up bool, cp pahopk.ControlPacket) bool) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{ln: ln, target: target, keep: keep}
	go p.serve()
	t.Cleanup(func() { ln.Close(); p.Cut() })
	return p
}

// URL is the broker URL that goes through p.
func (p *Proxy) URL() string { return "tcp://" + p.ln.Addr().String() }

func (p *Proxy) serve() {
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
func (p *Proxy) pass(src, dst net.Conn, up bool) {
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

// Cut closes every connection through p, as a network failure does.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}
