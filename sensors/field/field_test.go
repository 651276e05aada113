package field

import (
	"errors"
	"testing"
)

func TestWrapBuildsThePathFromTheLeaf(t *testing.T) {
	leaf := Errorf("qos", "qos %d: want 0, 1 or 2", 5)
	err := Wrap("mqtt", ": ", Wrap("subscriptions[1]", ": ", leaf))
	var fe *Error
	if !errors.As(err, &fe) || fe.Path != "mqtt.subscriptions[1].qos" || err.Error() != "mqtt: subscriptions[1]: qos 5: want 0, 1 or 2" {
		t.Errorf("wrapped: %q at %q", err, fe.Path)
	}
	joined := Wrap("sensors[0]", ".", errors.Join(Errorf("chip", "chip: empty"), errors.New("no path")))
	all := All(joined)
	if len(all) != 2 || all[0].Path != "sensors[0].chip" || all[0].Error() != "sensors[0].chip: empty" || all[1].Path != "sensors[0]" {
		t.Errorf("joined: %+v", all)
	}
	if got := Join("sensors", "[2].zone"); got != "sensors[2].zone" {
		t.Errorf("Join = %q", got)
	}
	cause := errors.New("disk")
	if e := Errorf("ca_file", "ca_file: %w", cause); !errors.Is(e, cause) {
		t.Errorf("%v does not wrap its cause", e)
	}
}
