package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/climated/climated/sensors/field"
)

// badQoS has a wrong value deep in the mqtt section: line 7 is
// mqtt.subscriptions[1].qos.
const badQoS = `listen: 127.0.0.1:0
mqtt:
  broker: tcp://127.0.0.1:1883
  subscriptions:
    - {topic: "zigbee2mqtt/+", format: zigbee2mqtt, zone: Indoor}
    - topic: "tele/+/SENSOR"
      qos: 5
      format: tasmota
      zone: Garage
`

const badQoSMessage = "bad.yaml:7: mqtt: subscriptions[1]: qos 5: want 0, 1 or 2"

// TestConfigFieldErrorPathAndLine: a bad value at a nested path is a
// *field.Error with the YAML path and its line, and the message puts the
// file and line before it; several at once are each placed on their line.
func TestConfigFieldErrorPathAndLine(t *testing.T) {
	_, err := checkConfig("bad.yaml", []byte(badQoS))
	var fe *field.Error
	if !errors.As(err, &fe) || fe.Path != "mqtt.subscriptions[1].qos" || fe.Line != 7 {
		t.Fatalf("error %v (%+v), want a field error at mqtt.subscriptions[1].qos line 7", err, fe)
	}
	if err.Error() != badQoSMessage {
		t.Errorf("message %q, want %q", err, badQoSMessage)
	}
	two := "sensors:\n  - {zone: Indoor, chip: bme281}\n  - zone: Loft\n    chip: sht4x\n    address: 0x12\n"
	_, err = checkConfig("c.yaml", []byte(two))
	want := "c.yaml:2: sensors[0].chip: unknown chip \"bme281\""
	want2 := "c.yaml:5: sensors[1].address: 0x12 is not an address of the sht4x"
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), want2) {
		t.Errorf("two bad sensors: %v, want lines %q and %q", err, want, want2)
	}
}

// TestEveryCommandRefusesABadFile: every command that reads a
// configuration refuses the bad file with the same located message, and
// writes no database.
func TestEveryCommandRefusesABadFile(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte(badQoS), 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "never.db")
	csv := filepath.Join(dir, "in.csv")
	os.WriteFile(csv, []byte("time,zone,measurement,value,source\n"), 0o600)
	want := strings.Replace(badQoSMessage, "bad.yaml", bad, 1)
	for _, args := range [][]string{
		{"serve", "--config", bad, "--db", db},
		{"config", "check", bad},
		{"read", "--config", bad},
		{"export", "--config", bad, "--db", db},
		{"import", "--config", bad, "--db", db, csv},
		{"backup", "--config", bad, "--db", db, filepath.Join(dir, "copy.db")},
		{"token", "--config", bad, "--db", db},
		{"mcp", "--config", bad, "--db", db},
		{"doctor", "--config", bad, "--db", db},
	} {
		var out bytes.Buffer
		err := run(t.Context(), args, &out, &out)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("climated %s: %v, want %q", strings.Join(args[:2], " "), err, want)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("a command created the database despite the bad configuration")
	}
}
