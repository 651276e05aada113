package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestConfigExampleIsCompleteAndValid(t *testing.T) {
	for _, args := range [][]string{{"config", "example"}, {"config", "example", "--starter"}} {
		var out bytes.Buffer
		if err := run(t.Context(), args, &out, os.Stderr); err != nil {
			t.Fatal(err)
		}
		if _, err := checkConfig("example.yaml", out.Bytes()); err != nil {
			t.Errorf("climated %v does not pass the check: %v", args, err)
		}
		if len(args) == 2 {
			for _, key := range knownKeys(reflect.TypeOf(Config{})) {
				if !strings.Contains(out.String(), "\n"+key+":") {
					t.Errorf("the example lacks the key %s", key)
				}
			}
		}
	}
}

func TestConfigCheckErrors(t *testing.T) {
	cases := []struct{ name, yaml, want string }{
		{"typo", "listen: 127.0.0.1:8473\ncolour: blue\n", "c.yaml:2: unknown key colour"},
		{"wrong type", "demo:\n  seed: many\n", `c.yaml:2: demo.seed: "many" is not a whole number`},
		{"bad listen", "log_level: info\nlisten: nowhere\n", `c.yaml:2: listen "nowhere": want HOST:PORT`},
		{"sensor without a zone", "sensors:\n  - {zone: Indoor, chip: bme280}\n  - {chip: sht4x, address: 0x44}\n", "c.yaml:3: sensors[1]"},
		{"wrong address", "sensors:\n  - zone: Indoor\n    chip: bme280\n    address: 0x44\n", "c.yaml:4: sensors[0].address: 0x44 is not an address of the bme280"},
		{"bad broker", "mqtt:\n  broker: ftp://example\n", "c.yaml:2: mqtt: broker"},
		{"bad subscription", "mqtt:\n  broker: tcp://127.0.0.1:1883\n  subscriptions:\n    - {topic: \"a/#/b\", format: zigbee2mqtt, zone: X}\n", "c.yaml:4: mqtt: subscriptions[0]: topic \"a/#/b\": '#' must be the last level"},
		{"rain gauge without pin", "rain_gauge:\n  zone: Rain\n", "c.yaml:1: rain_gauge: pin: empty"},
		{"retention not a duration", "retention:\n  raw: a month\n", `c.yaml:2: duration "a month"`},
		{"retention too short", "retention:\n  raw: 2h\n", "c.yaml:2: retention.raw 2h0m0s: keep raw readings at least a day"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := checkConfig("c.yaml", []byte(c.yaml))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}

// TestConfigCheckCommand runs the command as a user would: exit 0 and a
// summary for a good file, exit 2 and FILE:LINE for a bad one, and serve
// refuses the bad file the same way, without touching the database.
func TestConfigCheckCommand(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	os.WriteFile(good, []byte("listen: 127.0.0.1:8473\n"), 0o600)
	out, err := climated("config", "check", good).CombinedOutput()
	if err != nil || !strings.Contains(string(out), good+": ok (listen 127.0.0.1:8473, no sensors: scan the I²C bus, else the demo house)") {
		t.Errorf("check a good file: %v %s", err, out)
	}
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("listen: 127.0.0.1:8473\nsensors:\n  - {zone: Indoor, chip: bme281}\n"), 0o600)
	db := filepath.Join(dir, "never.db")
	for _, args := range [][]string{{"config", "check", bad}, {"serve", "--config", bad, "--db", db}} {
		out, err := climated(args...).CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), bad+":3: sensors[0].chip") {
			t.Errorf("climated %v: %v %s", args, err, out)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("serve created the database despite a bad configuration")
	}
}

// TestConfigCheckPasswordEnvUnset: config check checks the file; a
// password_env this shell lacks (the service has it from its environment
// file) is a note naming the variable, not an error.
func TestConfigCheckPasswordEnvUnset(t *testing.T) {
	file := filepath.Join(t.TempDir(), "climated.yaml")
	os.WriteFile(file, []byte("mqtt:\n  broker: tcp://127.0.0.1:1883\n  username: climated\n  password_env: CLIMATED_TEST_UNSET_PASSWORD\n  publish: {enabled: true}\n"), 0o600)
	var out bytes.Buffer
	err := run(t.Context(), []string{"config", "check", file}, &out, os.Stderr)
	if err != nil || !strings.Contains(out.String(), ": ok (") || !strings.Contains(out.String(), "note: CLIMATED_TEST_UNSET_PASSWORD (mqtt.password_env) is not set here") {
		t.Errorf("config check: %v\n%s", err, out.String())
	}
}

// Issue 32: config check with no FILE and no installed configuration
// named the missing default without saying that a FILE can be given.
func TestConfigCheckWithoutFile(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "climated.yaml")
	cmd := climated("config", "check")
	cmd.Env = append(cmd.Env, "CLIMATED_TEST_INSTALLED="+missing+string(os.PathListSeparator)+dir)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("config check of a missing default passed:\n%s", out)
	}
	for _, want := range []string{missing, "no such file", "when given no FILE", "climated config check ./climated.yaml", "climated config example --starter"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("config check without a file does not say %q:\n%s", want, out)
		}
	}
}
