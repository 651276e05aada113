package sensors

import (
	"errors"
	"fmt"
	"testing"
)

// Two sources of a zone fail: the one offline is named whatever the order
// of the statuses (the hub keeps them in a map); a zone with no fault has no
// entry; a healthy status says nothing.
func TestHealthByZone(t *testing.T) {
	nack := Status{Source: "i2c1/0x44", Zones: []string{"Garden"}, Err: errors.New("sht3x: nack")}
	off := Status{Source: "mqtt/climated/a", Zones: []string{"Garden", "Attic"}, Err: fmt.Errorf("hub climated/a: %w", ErrOffline)}
	ok := Status{Source: "gpio17", Zones: []string{"Rain"}}
	for _, order := range [][]Status{{nack, off, ok}, {off, nack, ok}, {ok, off, nack}} {
		got := HealthByZone(order)
		want := map[string]ZoneHealth{
			"Garden": {Fault: "mqtt/climated/a: hub climated/a: device reports offline", Offline: true},
			"Attic":  {Fault: "mqtt/climated/a: hub climated/a: device reports offline", Offline: true},
		}
		if len(got) != len(want) || got["Garden"] != want["Garden"] || got["Attic"] != want["Attic"] {
			t.Errorf("HealthByZone(%v) = %+v, want %+v", order, got, want)
		}
	}
	if got := HealthByZone([]Status{nack}); got["Garden"] != (ZoneHealth{Fault: "i2c1/0x44: sht3x: nack"}) {
		t.Errorf("a fault alone: %+v", got)
	}
}
