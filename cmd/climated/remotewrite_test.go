package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/doctor"
	"github.com/climated/climated/cmd/climated/internal/remotewrite"
	"github.com/climated/climated/sensors"
)

// rwConfig is a quiet hub (no demo house) that pushes to the stores,
// sending the last hour's readings to a new one and retrying within a
// second.
func rwConfig(t *testing.T, stores ...remotewrite.Config) config.Config {
	t.Helper()
	cfg := testConfig(t)
	cfg.Demo.Enabled = new(false)
	for _, s := range stores {
		s.Backfill, s.MaxBackoff = time.Hour, time.Second
		s.Labels = map[string]string{"instance": "cabin"}
		cfg.RemoteWrite = append(cfg.RemoteWrite, s)
	}
	return cfg
}

// cabinMinute is the i-th minute's readings of the zone Cabin from base:
// a temperature of 20 + i/10 °C and 0.2 mm of rain.
func recordMinutes(t *testing.T, h served, base time.Time, from, to int) {
	t.Helper()
	var rs []sensors.Reading
	for i := from; i < to; i++ {
		at := base.Add(time.Duration(i) * time.Minute)
		rs = append(rs, sensors.Reading{Zone: "Cabin", Measurement: sensors.Temperature, Value: 20 + float64(i)/10, Time: at, Source: "test/rw"},
			sensors.Reading{Zone: "Cabin", Measurement: sensors.Rain, Value: 0.2, Time: at, Source: "test/rw"})
	}
	if err := h.Hub.Record(context.Background(), sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
}

// rwHealth is the hub's /healthz: the remote write's state of each store,
// and the warnings.
type rwHealth struct {
	RemoteWrite []struct {
		State          string
		LastSuccess    string `json:"last_success"`
		BehindReadings int64  `json:"behind_readings"`
		BehindSeconds  int64  `json:"behind_seconds"`
		Sent, Failed   int64
	} `json:"remote_write"`
	Warnings []string
}

// waitRW waits (up to 60 s) until ok accepts the hub's /healthz, and
// returns it.
func waitRW(t *testing.T, h served, what string, ok func(rwHealth) bool) rwHealth {
	t.Helper()
	var last rwHealth
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		last = rwHealth{}
		if err := json.Unmarshal(hubGetAny(t, "http://"+h.Addr.String(), "/healthz"), &last); err != nil {
			t.Fatal(err)
		}
		if ok(last) {
			return last
		}
	}
	t.Fatalf("not %s within 60 s: %+v", what, last)
	return last
}

// upToDate: every store took every reading, sent in all.
func upToDate(sent int64) func(rwHealth) bool {
	return func(h rwHealth) bool {
		for _, s := range h.RemoteWrite {
			if s.State != remotewrite.StateUpToDate || s.Sent < sent {
				return false
			}
		}
		return len(h.RemoteWrite) > 0
	}
}

// checkMinutes holds the store's series of the zone Cabin to the minutes
// 0 to n from base: each reading once, at its own time, and the rain's
// counter adding up 0.2 mm a minute from what it was before the first.
func checkMinutes(t *testing.T, temps, rain []exported, base time.Time, n int, rainBefore float64) {
	t.Helper()
	if len(temps) != 1 || len(rain) != 1 {
		t.Fatalf("series of Cabin: %d of temperature, %d of rain; want one each", len(temps), len(rain))
	}
	for _, l := range []string{"job=climated", "instance=cabin", "source=test/rw", "simulated=false", "zone=Cabin"} {
		k, v, _ := strings.Cut(l, "=")
		if temps[0].Metric[k] != v || rain[0].Metric[k] != v {
			t.Errorf("label %s: %q and %q, want %q", k, temps[0].Metric[k], rain[0].Metric[k], v)
		}
	}
	if len(temps[0].Timestamps) != n || len(rain[0].Timestamps) != n {
		t.Fatalf("samples: %d of temperature, %d of rain; want %d each (no gap, none twice):\n%v\n%v", len(temps[0].Timestamps), len(rain[0].Timestamps), n, temps[0].Timestamps, rain[0].Timestamps)
	}
	for i := range n {
		want := base.Add(time.Duration(i)*time.Minute).Unix() * 1000
		if temps[0].Timestamps[i] != want || rain[0].Timestamps[i] != want {
			t.Fatalf("sample %d at %d and %d, want %d (the reading's own time)", i, temps[0].Timestamps[i], rain[0].Timestamps[i], want)
		}
		if v := temps[0].Values[i]; math.Abs(v-(20+float64(i)/10)) > 1e-9 {
			t.Errorf("temperature %d: %v, want %v", i, v, 20+float64(i)/10)
		}
		if v, w := rain[0].Values[i], rainBefore+0.0002*float64(i+1); math.Abs(v-w) > 1e-9 {
			t.Errorf("rain's counter %d: %v m, want %v", i, v, w)
		}
	}
}

// TestRemoteWriteOutageLeavesNoGap: readings a running hub records reach
// VictoriaMetrics at their own times; while the store is down (and the
// hub restarts meanwhile) they wait in the history, /healthz and
// /metrics say how many, and once it is back they arrive: no gap, none
// twice, the rain's counter going on.
func TestRemoteWriteOutageLeavesNoGap(t *testing.T) {
	t.Parallel()
	vm := startVM(t, "", "")
	cfg := rwConfig(t, remotewrite.Config{URL: vm.url() + "/api/v1/write"})
	h, stop := runHub(t, cfg)
	base := time.Now().Add(-50 * time.Minute).Truncate(time.Minute)
	recordMinutes(t, h, base, 0, 20)
	waitRW(t, h, "sent", upToDate(40))
	checkMinutes(t, vm.export(`climated_temperature_celsius{zone="Cabin"}`), vm.export(`climated_rain_meters_total{zone="Cabin"}`), base, 20, 0)

	vm.stop()
	recordMinutes(t, h, base, 20, 30)
	got := waitRW(t, h, "retrying with 20 behind", func(h rwHealth) bool {
		return len(h.RemoteWrite) == 1 && h.RemoteWrite[0].State == remotewrite.StateRetrying && h.RemoteWrite[0].BehindReadings == 20
	})
	if s := got.RemoteWrite[0]; s.BehindSeconds < 29*60 || s.Sent != 40 || len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], "retrying") {
		t.Errorf("while the store is down: %+v", got)
	}
	metrics := string(hubGetAny(t, "http://"+h.Addr.String(), "/metrics"))
	for _, want := range []string{`climated_remote_write_behind_samples{url="` + cfg.RemoteWrite[0].URL + `"} 20`, `climated_remote_write_samples_sent_total{url="` + cfg.RemoteWrite[0].URL + `"} 40`, `climated_remote_write_up{url="` + cfg.RemoteWrite[0].URL + `"} 0`} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	stop()
	h, _ = runHub(t, cfg)
	recordMinutes(t, h, base, 30, 40)
	vm.start()
	waitRW(t, h, "caught up", upToDate(80))
	checkMinutes(t, vm.export(`climated_temperature_celsius{zone="Cabin"}`), vm.export(`climated_rain_meters_total{zone="Cabin"}`), base, 40, 0)
}

// TestRemoteWriteWrongPassword: a store that refuses the hub's password
// gets nothing and the cursor stays where it was, with the reason on
// /healthz; a new password in the file is used without a restart, and
// then every reading arrives.
func TestRemoteWriteWrongPassword(t *testing.T) {
	t.Parallel()
	vm := startVM(t, "climated", "right-secret")
	pw := filepath.Join(t.TempDir(), "password")
	if err := os.WriteFile(pw, []byte("wrong-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	store := remotewrite.Config{URL: vm.url() + "/api/v1/write", BasicAuth: &remotewrite.BasicAuth{Username: "climated", PasswordFile: pw}}
	cfg := rwConfig(t, store)
	h := startHub(t, cfg)
	start, err := remotewrite.ReadKept(context.Background(), cfg.Database, store.URL)
	if err != nil || !start.Found {
		t.Fatalf("cursor at start: %+v, %v", start, err)
	}
	base := time.Now().Add(-30 * time.Minute).Truncate(time.Minute)
	recordMinutes(t, h, base, 0, 5)
	got := waitRW(t, h, "refused", func(h rwHealth) bool {
		return len(h.RemoteWrite) == 1 && h.RemoteWrite[0].State == remotewrite.StateRefused && h.RemoteWrite[0].BehindReadings == 10
	})
	if len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], "401 Unauthorized (check remote_write's basic_auth") || strings.Contains(got.Warnings[0], "secret") {
		t.Errorf("warnings %q: want the 401 and what to check, no password", got.Warnings)
	}
	if f := doctorRemoteWrite(t, cfg); f.Status != doctor.StatusFail || !strings.Contains(f.Detail, "401") {
		t.Errorf("doctor: %+v; want a failure naming the 401", f)
	}
	time.Sleep(2 * time.Second) // a few refusals more
	if kept, err := remotewrite.ReadKept(context.Background(), cfg.Database, store.URL); err != nil || kept != start {
		t.Errorf("cursor after refusals: %+v, %v; want it unmoved, %+v", kept, err, start)
	}
	if got := vm.export(`{zone="Cabin"}`); len(got) != 0 {
		t.Errorf("the store has %d series of a hub it refused", len(got))
	}
	if err := os.WriteFile(pw, []byte("right-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	waitRW(t, h, "sent with the new password", upToDate(10))
	checkMinutes(t, vm.export(`climated_temperature_celsius{zone="Cabin"}`), vm.export(`climated_rain_meters_total{zone="Cabin"}`), base, 5, 0)
	if f := doctorRemoteWrite(t, cfg); f.Status != doctor.StatusOK || !strings.Contains(f.Detail, "10 samples sent, 0 given up, last request taken") {
		t.Errorf("doctor: %+v", f)
	}
}

// doctorRemoteWrite is climated doctor's finding of the remote write.
func doctorRemoteWrite(t *testing.T, cfg config.Config) doctor.Finding {
	t.Helper()
	var out bytes.Buffer
	env := doctor.Env{Run: func(context.Context, string, ...string) (string, error) { return "", errors.New("not here") }}
	doctor.Run(context.Background(), cfg, env, true, &out)
	var r struct{ Findings []doctor.Finding }
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("doctor: %v: %s", err, out.String())
	}
	for _, f := range r.Findings {
		if f.Check == "remote write" {
			return f
		}
	}
	t.Fatalf("doctor has no remote write check: %s", out.String())
	return doctor.Finding{}
}

// hubGetAny is hubGet without a token, for a hub on loopback.
func hubGetAny(t *testing.T, base, path string) []byte {
	t.Helper()
	return hubGet(t, base, path, "")
}

// TestRemoteWriteSecretMissing: a hub whose remote_write names a password
// file it cannot read does not start, and says which key.
func TestRemoteWriteSecretMissing(t *testing.T) {
	t.Parallel()
	cfg := rwConfig(t, remotewrite.Config{URL: "http://127.0.0.1:1/api/v1/write",
		BasicAuth: &remotewrite.BasicAuth{Username: "hub", PasswordFile: filepath.Join(t.TempDir(), "none")}})
	log := slog.New(slog.DiscardHandler)
	err := serve(context.Background(), cfg, log, serveEnv{})
	if err == nil || !strings.Contains(err.Error(), "remote_write[0].basic_auth.password_file: open ") {
		t.Errorf("serve: %v; want the key of the file it cannot read", err)
	}
}
