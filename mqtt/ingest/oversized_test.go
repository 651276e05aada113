package ingest

import (
	"bytes"

	mochipk "github.com/mochi-mqtt/server/v2/packets"

	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/eclipse/paho.mqtt.golang/packets"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt/internal/clienttest"
	"github.com/climated/climated/mqtt/internal/mqtttest"
)

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
	opts := clienttest.FastOptions(m.URL(), "climated/big")
	opts.SessionFile = t.TempDir() + "/session"
	c := clienttest.New(t, opts)
	in, err := New(c, []Mapping{{Topic: "zigbee2mqtt/+", Format: "zigbee2mqtt", AutoZone: true}}, &Options{Logger: mqtttest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	clienttest.Run(t, c)
	runIngest(t, in, store)
	testutil.WaitFor(t, "the connection", func() bool { return c.Sessions() == 1 && c.Connected() })

	const size = 16 << 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rawPublish(t, m.URL(), "zigbee2mqtt/study", size)
	dev := testutil.MQTTClient(t, m.URL(), "")
	mqtttest.Publish(t, dev, "zigbee2mqtt/study", 1, false, `{"temperature":21.5}`)
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
	var head bytes.Buffer
	(&mochipk.FixedHeader{Type: mochipk.Publish, Qos: 1, Remaining: 2 + len(topic) + 2 + size}).Encode(&head)
	head.Write([]byte{byte(len(topic) >> 8), byte(len(topic))})
	head.WriteString(topic)
	head.Write([]byte{0, 1}) // packet id 1
	if _, err := conn.Write(head.Bytes()); err != nil {
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
