package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/history"
	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/hw"
)

// fakeSHT31 is an I²C bus with an SHT31 at 0x44 that measures 25 °C and
// 50 %RH (the frames of sensors/hw's tests); nothing else answers.
type fakeSHT31 struct {
	mu   sync.Mutex
	last [2]byte
}

func (b *fakeSHT31) Tx(addr uint16, w, r []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if addr != 0x44 {
		return errors.New("i2c: no ack")
	}
	if len(w) >= 2 {
		b.last = [2]byte{w[0], w[1]}
	}
	if len(r) > 0 {
		frame := []byte{0x80, 0x10, 0xE1} // status
		if b.last == [2]byte{0x24, 0x00} {
			frame = []byte{0x66, 0x66, 0x93, 0x80, 0x00, 0xA2} // a measurement
		}
		for i := range r {
			r[i] = frame[i%len(frame)]
		}
	}
	return nil
}
func (b *fakeSHT31) Close() error                      { return nil }
func (b *fakeSHT31) String() string                    { return "fake" }
func (b *fakeSHT31) SetSpeed(f physic.Frequency) error { return nil }

func openFakeSHT31(name string) (i2c.BusCloser, error) {
	if name != "1" {
		return nil, fmt.Errorf("/dev/i2c-%s: %w", name, hw.ErrNoBus)
	}
	return &fakeSHT31{}, nil
}

// tools is systemctl and timedatectl as a healthy hub answers.
func tools(service string) func(ctx context.Context, name string, args ...string) (string, error) {
	return func(ctx context.Context, name string, args ...string) (string, error) {
		if name == "timedatectl" {
			return "yes", nil
		}
		return service, nil
	}
}

// fullDisk is a directory on a small tmpfs that has no space left (tests
// run as root under CI).
func fullDisk(t *testing.T) string {
	t.Helper()
	dir := mountSmall(t, "512k")
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := f.Write(make([]byte, 64<<10)); err != nil {
			break
		}
	}
	f.Close()
	return dir
}

func closedPort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// TestDoctor runs the checks against a healthy hub with a fake bus, then
// breaks one thing at a time: each is found, named, and fails the doctor.
func TestDoctor(t *testing.T) {
	healthy := func(t *testing.T) (config.Config, doctorEnv) {
		cfg := testConfig(t)
		cfg.HW.Sensors = []hw.SensorConfig{{Zone: "Indoor", Chip: "sht31", Address: 0x44}}
		return cfg, doctorEnv{seams: seams{openBus: openFakeSHT31}, run: tools("active"), now: time.Now}
	}
	t.Run("healthy", func(t *testing.T) {
		cfg, env := healthy(t)
		_, brokerAddr := startBroker(t)
		cfg.MQTT = &mqtt.Config{Options: mqtt.Options{Broker: "tcp://" + brokerAddr}}
		var out bytes.Buffer
		if err := doctor(t.Context(), cfg, env, false, &out); err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		for _, want := range []string{"OK    i2c      bus 1: ", "OK    sensors  ", "Temperature 25.0 °C", "OK    broker   tcp://" + brokerAddr + ": connected", "OK    database", "OK    service", "no check failed"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("output lacks %q:\n%s", want, out.String())
			}
		}
	})
	cases := []struct {
		name   string
		break_ func(t *testing.T, cfg *config.Config, env *doctorEnv)
		check  string
		want   []string
	}{
		{"no bus", func(t *testing.T, cfg *config.Config, env *doctorEnv) { env.seams.openBus = noBus }, "i2c", []string{"no such I²C bus", "raspi-config"}},
		{"bus not permitted", func(t *testing.T, cfg *config.Config, env *doctorEnv) { env.seams.openBus = deniedBus }, "i2c", []string{"permission denied", "usermod -aG i2c"}},
		{"sensor not answering", func(t *testing.T, cfg *config.Config, env *doctorEnv) {
			cfg.HW.Sensors[0].Address = 0x45
		}, "sensors", []string{"0x45", "wiring"}},
		{"stopped broker", func(t *testing.T, cfg *config.Config, env *doctorEnv) {
			cfg.MQTT = &mqtt.Config{Options: mqtt.Options{Broker: "tcp://" + closedPort(t)}}
		}, "broker", []string{"connection refused", "start the broker"}},
		{"full disk", func(t *testing.T, cfg *config.Config, env *doctorEnv) {
			cfg.Database = filepath.Join(fullDisk(t), "climated.db")
		}, "database", []string{"no space left", "free space"}},
		{"clock never set", func(t *testing.T, cfg *config.Config, env *doctorEnv) {
			env.now = func() time.Time { return time.Unix(12, 0) }
		}, "clock", []string{"1970-01-01", "timedatectl set-ntp true"}},
		{"clock behind the history", func(t *testing.T, cfg *config.Config, env *doctorEnv) {
			s, err := history.Open(t.Context(), cfg.Database, nil)
			if err != nil {
				t.Fatal(err)
			}
			s.Record(t.Context(), []sensors.Reading{{Zone: "Indoor", Measurement: sensors.Temperature, Value: 21, Time: time.Now(), Source: "test"}})
			s.Close(context.Background())
			env.now = func() time.Time { return time.Now().Add(-time.Hour) }
		}, "clock", []string{"1 reading in the history is stamped ahead of the clock", "timedatectl set-ntp true", "climated forget --ahead"}},
		{"bad token file mode", func(t *testing.T, cfg *config.Config, env *doctorEnv) {
			cfg.Listen = "0.0.0.0:0"
			os.WriteFile(cfg.TokenPath(), []byte("0123456789abcdefghij\n"), 0o644)
			os.Chmod(cfg.TokenPath(), 0o644)
		}, "token", []string{"mode 0644", "chmod 600 /"}},
		{"service failed", func(t *testing.T, cfg *config.Config, env *doctorEnv) { env.run = tools("failed") }, "service", []string{"failed", "journalctl -u climated"}},
		{"port held by another program", func(t *testing.T, cfg *config.Config, env *doctorEnv) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ln.Close() })
			go func() {
				for {
					c, err := ln.Accept()
					if err != nil {
						return
					}
					c.Close()
				}
			}()
			cfg.Listen = ln.Addr().String()
		}, "listen", []string{"held by another program", "ss -ltnp"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, env := healthy(t)
			c.break_(t, &cfg, &env)
			var out bytes.Buffer
			err := doctor(t.Context(), cfg, env, true, &out)
			if !errors.Is(err, errUnhealthy) {
				t.Errorf("doctor returned %v, want it to fail", err)
			}
			var got struct {
				OK       bool
				Findings []finding
			}
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatalf("--json: %v\n%s", err, out.String())
			}
			var text []string
			for _, f := range got.Findings {
				if f.Check == c.check && f.Status == statusFail {
					text = append(text, f.Detail+" / "+f.Fix)
				}
			}
			all := strings.Join(text, "\n")
			if got.OK || len(text) == 0 {
				t.Fatalf("no failed %s check:\n%s", c.check, out.String())
			}
			for _, w := range c.want {
				if !strings.Contains(all, w) {
					t.Errorf("the %s check does not say %q:\n%s", c.check, w, all)
				}
			}
		})
	}
}

// TestDoctorCommand runs the real process: a token file others can read
// is a failed check, exit status 1, and --json says so.
func TestDoctorCommand(t *testing.T) {
	dir := t.TempDir()
	token := filepath.Join(dir, "token")
	os.WriteFile(token, []byte("0123456789abcdefghij\n"), 0o644)
	os.Chmod(token, 0o644)
	conf := filepath.Join(dir, "climated.yaml")
	os.WriteFile(conf, []byte("listen: 0.0.0.0:0\nrain_gauge: {pin: GPIO17}\ntoken_file: "+token+"\ndatabase: "+filepath.Join(dir, "climated.db")+"\n"), 0o600)
	out, errOut, code := runCLI(t, "doctor", "--config", conf, "--json")
	var got struct {
		OK       bool
		Findings []finding
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 1 || got.OK {
		t.Fatalf("exit %d, %v\nstdout %s\nstderr %s", code, err, out, errOut)
	}
	failed := map[string]bool{}
	for _, f := range got.Findings {
		failed[f.Check] = f.Status == statusFail
	}
	if !failed["token"] || !failed["gpio"] || failed["database"] {
		t.Errorf("failed checks %v:\n%s", failed, out)
	}
}

// Issue 32: right after the demo fill the doctor said 2.0 KiB, the main
// file alone; the day was in the WAL. The size counts both.
func TestDoctorDatabaseSizeCountsTheWAL(t *testing.T) {
	db := filepath.Join(t.TempDir(), "climated.db")
	os.WriteFile(db, make([]byte, 2048), 0o600)
	os.WriteFile(db+"-wal", make([]byte, 3<<20), 0o600)
	f := checkDatabase(context.Background(), config.Config{Database: db}, doctorEnv{minFree: 1})
	if len(f) != 1 || !strings.Contains(f[0].Detail, "(3.0 MiB)") {
		t.Errorf("database finding %+v, want the main file and the WAL, 3.0 MiB", f)
	}
}
