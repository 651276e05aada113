package mqtt

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/eclipse/paho.mqtt.golang/packets"
	"github.com/mochi-mqtt/server/v2/hooks/auth"
	"github.com/mochi-mqtt/server/v2/listeners"

	"github.com/climated/climated/internal/testutil"
)

// TestProbe: the doctor's one connection succeeds with the right
// password, and a refused one is paho's CONNACK error, for errors.Is.
func TestProbe(t *testing.T) {
	o := Options{Broker: passwordBroker(t), Username: "hub", Password: "s3cret", ConnectTimeout: 5 * time.Second}
	if err := Probe(t.Context(), o); err != nil {
		t.Fatalf("the right password: %v", err)
	}
	o.Password = "guess"
	err := Probe(t.Context(), o)
	if !errors.Is(err, packets.ErrorRefusedNotAuthorised) && !errors.Is(err, packets.ErrorRefusedBadUsernameOrPassword) {
		t.Errorf("a wrong password: %v, want paho's refusal", err)
	}
	var oe *OptionsError
	if err := Probe(t.Context(), Options{Broker: "ssl://127.0.0.1:8883", CAFile: "/nonexistent/ca.pem"}); !errors.As(err, &oe) {
		t.Errorf("a CA file that cannot be read: %v, want an *OptionsError", err)
	}
	// A broker that never answers: the context ends the wait.
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := Probe(ctx, Options{Broker: "tcp://" + silent.Addr().String(), ConnectTimeout: time.Second}); !errors.Is(err, context.Canceled) {
		t.Errorf("an ended context: %v", err)
	}
}

// passwordBroker runs a broker that lets in the user hub with the
// password s3cret alone, and returns its URL.
func passwordBroker(t *testing.T) string {
	l := listeners.NewTCP(listeners.Config{ID: "tcp", Address: "127.0.0.1:0"})
	ledger := &auth.Ledger{Auth: auth.AuthRules{{Username: "hub", Password: "s3cret", Allow: true}}}
	testutil.Broker(t, l, new(auth.Hook), &auth.Options{Ledger: ledger})
	return "tcp://" + l.Address()
}
