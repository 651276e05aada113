package mqtt

import (
	"context"
	"crypto/rand"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// Probe connects once to the broker of opts, with its credentials and TLS
// as a hub with these options would, and disconnects: climated doctor's
// broker check. It connects under a client ID of its own (the hub's would
// push the hub off the broker), with a clean session and no will, so that
// the hub's availability and queued messages are left alone. opts are
// checked first (Validate).
//
// A refusal is paho's error as it is: errors.Is matches it with the
// CONNACK codes of github.com/eclipse/paho.mqtt.golang/packets
// (ErrorRefusedNotAuthorised, ErrorRefusedBadUsernameOrPassword …). When
// ctx ends first, Probe returns ctx.Err(); options that cannot be used (a
// TLS file that cannot be read, say) are an *OptionsError, and nothing is
// sent.
func Probe(ctx context.Context, opts Options) error {
	if err := opts.Validate(); err != nil {
		return &OptionsError{Err: err}
	}
	o := opts.withDefaults()
	u, _ := o.brokerURL()
	password, _ := o.password()
	po := paho.NewClientOptions().AddBroker(u.String()).
		SetClientID("climated-doctor-" + rand.Text()[:8]).
		SetUsername(o.Username).SetPassword(password).
		SetConnectTimeout(o.ConnectTimeout).
		SetCleanSession(true).
		SetAutoReconnect(false).SetConnectRetry(false)
	if isTLS(u.Scheme) {
		tc, err := o.tlsConfig(u)
		if err != nil {
			return &OptionsError{Err: err}
		}
		po.SetTLSConfig(tc)
	}
	c := paho.NewClient(po)
	tok := c.Connect()
	select {
	case <-tok.Done():
	case <-ctx.Done():
		return ctx.Err()
	}
	if err := tok.Error(); err != nil {
		return err
	}
	c.Disconnect(100)
	return nil
}

// OptionsError is a Probe that did not connect because its options are
// wrong; its message is the options' own.
type OptionsError struct{ Err error }

func (e *OptionsError) Error() string { return e.Err.Error() }

// Unwrap gives the options' error, for errors.Is and errors.As.
func (e *OptionsError) Unwrap() error { return e.Err }
