package config

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/climated/climated/sensors/field"
)

// testdata/bad-qos.yaml has a wrong value deep in the mqtt section: line
// 7 is mqtt.subscriptions[1].qos. The commands' test in package main
// reads it too.
const badQoSMessage = "bad.yaml:7: mqtt: subscriptions[1]: qos 5: want 0, 1 or 2"

// TestConfigFieldErrorPathAndLine: a bad value at a nested path is a
// *field.Error with the YAML path and its line, and the message puts the
// file and line before it; several at once are each placed on their line.
func TestConfigFieldErrorPathAndLine(t *testing.T) {
	badQoS, err := os.ReadFile("testdata/bad-qos.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Check("bad.yaml", badQoS)
	var fe *field.Error
	if !errors.As(err, &fe) || fe.Path != "mqtt.subscriptions[1].qos" || fe.Line != 7 {
		t.Fatalf("error %v (%+v), want a field error at mqtt.subscriptions[1].qos line 7", err, fe)
	}
	if err.Error() != badQoSMessage {
		t.Errorf("message %q, want %q", err, badQoSMessage)
	}
	two := "sensors:\n  - {zone: Indoor, chip: bme281}\n  - zone: Loft\n    chip: sht4x\n    address: 0x12\n"
	_, err = Check("c.yaml", []byte(two))
	want := "c.yaml:2: sensors[0].chip: unknown chip \"bme281\""
	want2 := "c.yaml:5: sensors[1].address: 0x12 is not an address of the sht4x"
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), want2) {
		t.Errorf("two bad sensors: %v, want lines %q and %q", err, want, want2)
	}
}
