package mqtt

import (
	"bytes"
	"io"
	"math/rand/v2"
	"net"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eclipse/paho.mqtt.golang/packets"

	"github.com/climated/climated/internal/testutil"
)

// publishPacket is a PUBLISH as paho's own codec writes it.
func publishPacket(topic string, qos byte, id uint16, dup, retain bool, payload []byte) *packets.PublishPacket {
	p := packets.NewControlPacket(packets.Publish).(*packets.PublishPacket)
	p.TopicName, p.Qos, p.MessageID, p.Dup, p.Retain, p.Payload = topic, qos, id, dup, retain, payload
	return p
}

// The stream of packets a broker sends, written by paho's codec, comes out
// of limitConn as paho's codec reads it: every packet as it was, but the
// PUBLISH whose payload is over the limit, which keeps its topic, flags
// and packet id and gets the stand-in payload. The stream is cut into
// reads of random sizes, as a network does.
func TestLimitConnDropsOnlyOversizedPayloads(t *testing.T) {
	const limit = 1000
	big := bytes.Repeat([]byte("x"), 200_000)
	longTopic := strings.Repeat("t", 3000) // a variable header larger than the limit
	want := []packets.ControlPacket{
		packets.NewControlPacket(packets.Connack),
		publishPacket("a/b", 0, 0, false, false, []byte("small")),
		publishPacket("big/one", 1, 7, true, true, big),
		packets.NewControlPacket(packets.Pingresp),
		publishPacket("at/limit", 1, 8, false, false, big[:limit]),
		publishPacket(longTopic, 0, 0, false, false, []byte("a long topic, a short payload")),
		publishPacket("over/limit", 2, 9, false, false, big[:limit+1]),
		packets.NewControlPacket(packets.Puback),
	}
	var stream bytes.Buffer
	for _, p := range want {
		if err := p.Write(&stream); err != nil {
			t.Fatal(err)
		}
	}
	for seed := range uint64(20) {
		server, client := net.Pipe()
		go func(b []byte) {
			r := rand.New(rand.NewPCG(seed, 1))
			for len(b) > 0 {
				n := min(len(b), 1+r.IntN(5000))
				server.Write(b[:n])
				b = b[n:]
			}
			server.Close()
		}(stream.Bytes())
		var lim atomic.Int64
		lim.Store(limit)
		c := newLimitConn(client, &lim)
		for i, w := range want {
			got, err := packets.ReadPacket(c)
			if err != nil {
				t.Fatalf("seed %d packet %d: %v", seed, i, err)
			}
			wp, ok := w.(*packets.PublishPacket)
			if !ok || len(wp.Payload) <= limit {
				if got.String() != w.String() || ok && !bytes.Equal(got.(*packets.PublishPacket).Payload, wp.Payload) {
					t.Fatalf("seed %d packet %d: %s, want %s unchanged", seed, i, got, w)
				}
				continue
			}
			gp := got.(*packets.PublishPacket)
			if gp.TopicName != wp.TopicName || gp.Qos != wp.Qos || gp.MessageID != wp.MessageID || gp.Dup != wp.Dup || gp.Retain != wp.Retain {
				t.Fatalf("seed %d packet %d: %s, want the header of %s", seed, i, gp, wp)
			}
			if n, ok := oversizedSize(gp.Payload); !ok || n != len(wp.Payload) {
				t.Fatalf("seed %d packet %d: payload %q, want the stand-in for %d bytes", seed, i, gp.Payload, len(wp.Payload))
			}
		}
		if _, err := packets.ReadPacket(c); err != io.EOF {
			t.Fatalf("seed %d: after the last packet: %v, want EOF", seed, err)
		}
	}
}

// A broker that sends a remaining length of more than four bytes is
// broken: the connection ends with an error, rather than reading on.
func TestLimitConnMalformedLength(t *testing.T) {
	server, client := net.Pipe()
	go func() { server.Write([]byte{0x30, 0xff, 0xff, 0xff, 0xff, 0x01}); server.Close() }()
	var lim atomic.Int64
	lim.Store(10)
	if _, err := packets.ReadPacket(newLimitConn(client, &lim)); err == nil || !strings.Contains(err.Error(), "malformed remaining length") {
		t.Fatalf("read: %v", err)
	}
}

// rawPublish connects to broker as a bare MQTT client and publishes a
// payload of size zero bytes at QoS 1 to topic, streamed in 64 KiB
// writes, so that the test process never holds it (what the hub holds is
// what is measured).
func rawPublish(t *testing.T, broker, topic string, size int) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(broker, "tcp://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	cp := packets.NewControlPacket(packets.Connect).(*packets.ConnectPacket)
	cp.ProtocolName, cp.ProtocolVersion, cp.ClientIdentifier, cp.CleanSession, cp.Keepalive = "MQTT", 4, "raw-publisher", true, 30
	if err := cp.Write(conn); err != nil {
		t.Fatal(err)
	}
	if p, err := packets.ReadPacket(conn); err != nil || p.(*packets.ConnackPacket).ReturnCode != 0 {
		t.Fatalf("connect: %v %v", p, err)
	}
	head := []byte{0x32}
	head = appendLength(head, 2+len(topic)+2+size)
	head = append(head, byte(len(topic)>>8), byte(len(topic)))
	head = append(append(head, topic...), 0, 1)
	if _, err := conn.Write(head); err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 64<<10)
	for left := size; left > 0; left -= len(chunk) {
		if _, err := conn.Write(chunk[:min(left, len(chunk))]); err != nil {
			t.Fatal(err)
		}
	}
	conn.SetReadDeadline(time.Now().Add(testutil.Patience))
	if p, err := packets.ReadPacket(conn); err != nil {
		t.Fatalf("no PUBACK for the %d-byte message: %v", size, err)
	} else if _, ok := p.(*packets.PubackPacket); !ok {
		t.Fatalf("got %s, want a PUBACK", p)
	}
}

// One 100 MB message took a hub from 35 to 241 MB, since paho
// reads a whole packet before the ingest can judge its size. Now a 16 MB
// message over max_payload (64 KiB) is thrown away as it arrives: the
// hub's process allocates less than 2 MB in all while it takes it in (it
// allocated more than 16 MB before), counts it oversized, and goes on
// with the next message.
func TestOversizedMessageIsNeverHeld(t *testing.T) {
	m := testutil.NewMosquitto(t)
	m.Start()
	store := openStore(t)
	opts := fastOptions(m.URL(), "climated/big")
	opts.SessionFile = t.TempDir() + "/session"
	c := newClient(t, opts)
	in, err := NewIngest(c, []Mapping{{Topic: "zigbee2mqtt/+", Format: "zigbee2mqtt", AutoZone: true}}, &IngestOptions{Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	runClient(t, c)
	runIngest(t, in, store)
	testutil.WaitFor(t, "the connection", func() bool { return c.Sessions() == 1 && c.Connected() })

	const size = 16 << 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rawPublish(t, m.URL(), "zigbee2mqtt/study", size)
	dev := testutil.MQTTClient(t, m.URL(), "")
	publish(t, dev, "zigbee2mqtt/study", 1, false, `{"temperature":21.5}`)
	testutil.WaitFor(t, "the reading after the oversized message", func() bool { v, _ := value(store, "study", "Temperature"); return v == 21.5 })
	runtime.ReadMemStats(&after)
	if st := in.Stats(); st.Oversized != 1 || st.Received != 2 {
		t.Errorf("stats %+v, want 2 received and 1 oversized", st)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 2<<20 {
		t.Errorf("the process allocated %d bytes while taking in a %d-byte message, want under 2 MiB", alloc, size)
	} else {
		t.Logf("allocated %d bytes while taking in a %d-byte message and a reading", alloc, size)
	}
}
