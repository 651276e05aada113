package ingest

import (
	"context"
	"fmt"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/mqtt/internal/clienttest"
	"github.com/climated/climated/mqtt/internal/mqtttest"
	"github.com/climated/climated/sensors"
)

type discardSink struct{}

func (discardSink) Record(context.Context, sensors.Batch) error { return nil }
func (discardSink) Report(sensors.Status)                       {}
func (discardSink) Flush(context.Context) error                 { return nil }

// zigbeeMessages are n messages of 20 devices, like an Aqara sensor's.
func zigbeeMessages(n int) []mqtt.Message {
	msgs := make([]mqtt.Message, n)
	for i := range msgs {
		msgs[i] = msg(fmt.Sprintf("zigbee2mqtt/sensor_%02d", i%20), fmt.Sprintf(
			`{"battery":91,"humidity":%.2f,"linkquality":87,"power_outage_count":4,"pressure":1009.8,"temperature":%.2f,"voltage":2985}`,
			40+float64(i%300)/10, 18+float64(i%500)/100))
	}
	return msgs
}

// BenchmarkIngest measures messages decoded and recorded per second: the
// handler, the queue, the decoder, validation and the sink, without the
// network. "discard" is the ingest alone; "history" records into a real
// SQLite store.
func BenchmarkIngest(b *testing.B) {
	for _, target := range []string{"discard", "history"} {
		b.Run(target, func(b *testing.B) {
			var sink sensors.Sink = discardSink{}
			if target == "history" {
				sink = openStore(b)
			}
			in, err := New(nil, []Mapping{{Topic: "zigbee2mqtt/+", Format: "zigbee2mqtt", AutoZone: true}},
				&Options{QueueSize: 4096, Logger: mqtttest.Discard()})
			if err != nil {
				b.Fatal(err)
			}
			msgs := zigbeeMessages(1000)
			handle := in.handler(0)
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				handle(msgs[i%len(msgs)])
				if len(in.queue) >= 1024 || i == b.N-1 {
					for len(in.queue) > 0 {
						if err := in.drain(ctx, sink, <-in.queue); err != nil {
							b.Fatal(err)
						}
					}
				}
			}
			b.StopTimer()
			if st := in.Stats(); st.Decoded != uint64(b.N) {
				b.Fatalf("decoded %d of %d: %+v", st.Decoded, b.N, st)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
		})
	}
}

// BenchmarkBrokerIngest publishes device messages (QoS 1) through an
// in-process broker to an ingest recording into a real store.
func BenchmarkBrokerIngest(b *testing.B) {
	_, broker := mqtttest.StartMochi(b)
	store := openStore(b)
	opts := clienttest.FastOptions(broker, "climated/bench")
	opts.Logger = mqtttest.Discard()
	c := clienttest.New(b, opts)
	in, err := New(c, []Mapping{{Topic: "zigbee2mqtt/+", Format: "zigbee2mqtt", AutoZone: true}},
		&Options{QueueSize: 1 << 16, Logger: mqtttest.Discard()})
	if err != nil {
		b.Fatal(err)
	}
	clienttest.Run(b, c)
	runIngest(b, in, store)
	dev := testutil.MQTTClient(b, broker, "")
	testutil.WaitFor(b, "the subscription", c.Connected)
	time.Sleep(50 * time.Millisecond) // the subscription follows the connection
	msgs := zigbeeMessages(1000)
	start := in.Stats()
	b.ResetTimer()
	var toks []paho.Token
	for i := range b.N {
		m := msgs[i%len(msgs)]
		toks = append(toks, dev.Publish(m.Topic, 1, false, m.Payload))
		if len(toks) == 1000 || i == b.N-1 {
			for _, tok := range toks {
				if !tok.WaitTimeout(testutil.Patience) || tok.Error() != nil {
					b.Fatalf("publish: %v", tok.Error())
				}
			}
			toks = toks[:0]
			// A window of 1000 messages: the broker drops messages for
			// a subscriber that falls too far behind.
			testutil.WaitFor(b, "the window", func() bool { return in.Stats().Received-start.Received >= uint64(i+1) })
		}
	}
	testutil.WaitFor(b, "every message", func() bool {
		st := in.Stats()
		return st.Decoded+st.QueueFull-start.Decoded-start.QueueFull >= uint64(b.N)
	})
	b.StopTimer()
	st := in.Stats()
	b.ReportMetric(float64(st.Decoded-start.Decoded)/b.Elapsed().Seconds(), "msgs/s")
	b.ReportMetric(float64(st.QueueFull-start.QueueFull), "dropped")
}
