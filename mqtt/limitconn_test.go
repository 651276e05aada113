package mqtt

import (
	"bytes"
	"io"
	"math/rand/v2"
	"net"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/eclipse/paho.mqtt.golang/packets"
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
