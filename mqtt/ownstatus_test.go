package mqtt

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt/internal/mqtttest"
)

// Another client's retained "offline" on the hub's availability topic
// would stand until the hub next reconnects, with every entity of the hub
// unavailable in Home Assistant meanwhile: the hub says online
// again at once. Its own "offline" when it stops stands, and nothing
// answers anything twice.
func TestOwnStatusSaysOnlineAgain(t *testing.T) {
	m := testutil.NewMosquitto(t)
	m.Start()
	const topic = "climated/own/status"
	observer := testutil.MQTTClient(t, m.URL(), "")
	var mu sync.Mutex
	var seen []string
	observed := func() []string { mu.Lock(); defer mu.Unlock(); return slices.Clone(seen) }
	tok := observer.Subscribe(topic, 1, func(_ paho.Client, pm paho.Message) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, string(pm.Payload()))
	})
	if !tok.WaitTimeout(testutil.Patience) || tok.Error() != nil {
		t.Fatalf("observer subscribe: %v", tok.Error())
	}
	log := &testutil.Buffer{}
	opts := fastOptions(m.URL(), "climated/own")
	opts.Logger = mqtttest.LoggerTo(t, log)
	c := newClient(t, opts)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	stop := sync.OnceValue(func() error { cancel(); return <-done })
	t.Cleanup(func() { stop() })
	testutil.WaitFor(t, "the hub's online", func() bool { return slices.Equal(observed(), []string{"online"}) })

	mqtttest.Publish(t, observer, topic, 1, true, "offline")
	testutil.WaitFor(t, "the retained status to be online again", func() bool { return retainedOn(t, m.URL(), topic) == "online" })
	testutil.WaitFor(t, "the hub's answer to reach the observer", func() bool { return len(observed()) >= 3 })

	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if got := retainedOn(t, m.URL(), topic); got != "offline" {
		t.Errorf("retained status %q after the hub stopped, want offline", got)
	}
	testutil.WaitFor(t, "the hub's offline to reach the observer", func() bool { return len(observed()) >= 4 })
	time.Sleep(100 * time.Millisecond) // anything more would be an answer too many
	if got, want := observed(), []string{"online", "offline", "online", "offline"}; !slices.Equal(got, want) {
		t.Errorf("the status topic carried %q, want %q", got, want)
	}
	if n := strings.Count(log.String(), "another client published on this hub's availability topic"); n != 1 {
		t.Errorf("%d warnings about the other client's offline, want 1", n)
	}
}

// retainedOn is the retained message on topic as a client that connects
// now reads it; "" when there is none.
func retainedOn(t testing.TB, broker, topic string) string {
	t.Helper()
	o := paho.NewClientOptions().AddBroker(broker).SetClientID(fmt.Sprintf("reader-%d", time.Now().UnixNano())).
		SetConnectTimeout(2 * time.Second)
	got := make(chan string, 1)
	c := paho.NewClient(o)
	if tok := c.Connect(); !tok.WaitTimeout(testutil.Patience) || tok.Error() != nil {
		t.Fatalf("reader connect to %s: %v", broker, tok.Error())
	}
	defer c.Disconnect(0)
	tok := c.Subscribe(topic, 1, func(_ paho.Client, pm paho.Message) {
		if pm.Retained() {
			select {
			case got <- string(pm.Payload()):
			default:
			}
		}
	})
	if !tok.WaitTimeout(testutil.Patience) || tok.Error() != nil {
		t.Fatalf("reader subscribe %s: %v", topic, tok.Error())
	}
	// The broker sends the retained message before its SUBACK; paho
	// hands it over on a goroutine of its own, so wait a moment for it.
	select {
	case s := <-got:
		return s
	case <-time.After(200 * time.Millisecond):
		return ""
	}
}
