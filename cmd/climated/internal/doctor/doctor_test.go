package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/i2c"

	"github.com/mochi-mqtt/server/v2/hooks/auth"
	"github.com/mochi-mqtt/server/v2/listeners"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/internal/testutil/fakebus"
	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/hw"
)

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
	dir := testutil.MountSmall(t, "512k")
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

// testConfig is the defaults on a port of the system's choosing and a
// database of the test's own.
func testConfig(t *testing.T) config.Config {
	cfg := config.Default()
	cfg.Listen = "127.0.0.1:0"
	cfg.Database = filepath.Join(t.TempDir(), "climated.db")
	return cfg
}

func noBus(name string) (i2c.BusCloser, error) {
	return nil, fmt.Errorf("/dev/i2c-%s: %w", name, hw.ErrNoBus)
}

func deniedBus(name string) (i2c.BusCloser, error) {
	return nil, fmt.Errorf("/dev/i2c-%s: %w", name, hw.ErrPermission)
}

// TestDoctor runs the checks against a healthy hub with a fake bus, then
// breaks one thing at a time: each is found, named, and fails the doctor.
func TestDoctor(t *testing.T) {
	healthy := func(t *testing.T) (config.Config, Env) {
		cfg := testConfig(t)
		cfg.HW.Sensors = []hw.SensorConfig{{Zone: "Indoor", Chip: "sht31", Address: 0x44}}
		return cfg, Env{OpenBus: fakebus.OpenSHT31, Run: tools("active"), Now: time.Now}
	}
	t.Run("healthy", func(t *testing.T) {
		cfg, env := healthy(t)
		_, brokerAddr := testutil.LoopbackBroker(t)
		cfg.MQTT = &config.MQTT{Options: mqtt.Options{Broker: "tcp://" + brokerAddr}}
		var out bytes.Buffer
		if err := Run(t.Context(), cfg, env, false, &out); err != nil {
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
		break_ func(t *testing.T, cfg *config.Config, env *Env)
		check  string
		want   []string
	}{
		{"no bus", func(t *testing.T, cfg *config.Config, env *Env) { env.OpenBus = noBus }, "i2c", []string{"no such I²C bus", "raspi-config"}},
		{"bus not permitted", func(t *testing.T, cfg *config.Config, env *Env) { env.OpenBus = deniedBus }, "i2c", []string{"permission denied", "usermod -aG i2c"}},
		{"sensor not answering", func(t *testing.T, cfg *config.Config, env *Env) {
			cfg.HW.Sensors[0].Address = 0x45
		}, "sensors", []string{"0x45", "wiring"}},
		{"stopped broker", func(t *testing.T, cfg *config.Config, env *Env) {
			cfg.MQTT = &config.MQTT{Options: mqtt.Options{Broker: "tcp://127.0.0.1:" + testutil.FreePort(t)}}
		}, "broker", []string{"connection refused", "start the broker"}},
		{"wrong password", func(t *testing.T, cfg *config.Config, env *Env) {
			tcp := listeners.NewTCP(listeners.Config{ID: "tcp", Address: "127.0.0.1:0"})
			ledger := &auth.Ledger{Auth: auth.AuthRules{{Username: "hub", Password: "s3cret", Allow: true}}}
			testutil.Broker(t, tcp, new(auth.Hook), &auth.Options{Ledger: ledger})
			cfg.MQTT = &config.MQTT{Options: mqtt.Options{Broker: "tcp://" + tcp.Address(), Username: "hub", Password: "guess"}}
		}, "broker", []string{"not Authorized", "correct mqtt.username and mqtt.password"}},
		{"full disk", func(t *testing.T, cfg *config.Config, env *Env) {
			cfg.Database = filepath.Join(fullDisk(t), "climated.db")
		}, "database", []string{"no space left", "free space"}},
		{"clock never set", func(t *testing.T, cfg *config.Config, env *Env) {
			env.Now = func() time.Time { return time.Unix(12, 0) }
		}, "clock", []string{"1970-01-01", "timedatectl set-ntp true"}},
		{"clock behind the history", func(t *testing.T, cfg *config.Config, env *Env) {
			s, err := history.Open(t.Context(), cfg.Database, nil)
			if err != nil {
				t.Fatal(err)
			}
			s.Record(t.Context(), sensors.Batch{Readings: []sensors.Reading{{Zone: "Indoor", Measurement: sensors.Temperature, Value: 21, Time: time.Now(), Source: "test"}}})
			s.Close(context.Background())
			env.Now = func() time.Time { return time.Now().Add(-time.Hour) }
		}, "clock", []string{"1 reading in the history is stamped ahead of the clock", "timedatectl set-ntp true", "climated forget --ahead"}},
		{"bad token file mode", func(t *testing.T, cfg *config.Config, env *Env) {
			cfg.Listen = "0.0.0.0:0"
			os.WriteFile(cfg.TokenPath(), []byte("0123456789abcdefghij\n"), 0o644)
			os.Chmod(cfg.TokenPath(), 0o644)
		}, "token", []string{"mode 0644", "chmod 600 /"}},
		{"service failed", func(t *testing.T, cfg *config.Config, env *Env) { env.Run = tools("failed") }, "service", []string{"failed", "journalctl -u climated"}},
		{"port held by another program", func(t *testing.T, cfg *config.Config, env *Env) {
			cfg.Listen = testutil.Listening(t, "tcp", "127.0.0.1:0").Addr().String()
		}, "listen", []string{"held by another program", "ss -ltnp"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, env := healthy(t)
			c.break_(t, &cfg, &env)
			var out bytes.Buffer
			err := Run(t.Context(), cfg, env, true, &out)
			if !errors.Is(err, ErrUnhealthy) {
				t.Errorf("doctor returned %v, want it to fail", err)
			}
			var got struct {
				OK       bool
				Findings []Finding
			}
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatalf("--json: %v\n%s", err, out.String())
			}
			var text []string
			for _, f := range got.Findings {
				if f.Check == c.check && f.Status == StatusFail {
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

// Right after the demo fill the doctor said 2.0 KiB, the main
// file alone; the day was in the WAL. The size counts both.
func TestDoctorDatabaseSizeCountsTheWAL(t *testing.T) {
	db := filepath.Join(t.TempDir(), "climated.db")
	os.WriteFile(db, make([]byte, 2048), 0o600)
	os.WriteFile(db+"-wal", make([]byte, 3<<20), 0o600)
	f := checkDatabase(context.Background(), config.Config{Database: db}, Env{MinFree: 1})
	if len(f) != 1 || !strings.Contains(f[0].Detail, "(3.0 MiB)") {
		t.Errorf("database Finding %+v, want the main file and the WAL, 3.0 MiB", f)
	}
}
