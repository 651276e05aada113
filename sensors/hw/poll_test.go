package hw

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"periph.io/x/conn/v3/i2c/i2ctest"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/internal/i2cfake"
	"github.com/climated/climated/sensors/internal/sinktest"
)

// sht3xReads is the SHT3x's traffic for n readings after its status.
func sht3xReads(n int) []i2ctest.IO {
	ops := concat(sht3xOps[:2])
	for range n {
		ops = append(ops, sht3xOps[2:]...)
	}
	return ops
}

func TestRunIntervals(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m, open := mux(map[uint16]*i2cfake.Bus{0x44: sensirionChip(0x44, sht3xReads(4)...)})
		s := newSource(t, Config{Sensors: []SensorConfig{{Zone: "Indoor", Chip: "sht3x"}}}, open, nil)
		sk := &sinktest.Sink{}
		start := time.Now()
		stop := sinktest.Start(s, sk)
		time.Sleep(3*time.Minute + 30*time.Second)
		if err := stop(); err != nil {
			t.Fatalf("Run: %v", err)
		}
		rs, statuses := sk.Snapshot()
		temps := of(rs, "i2c1/0x44 sht3x", sensors.Temperature)
		if len(temps) != 4 || len(rs) != 8 {
			t.Fatalf("%d readings, %d temperatures, want 8 and 4", len(rs), len(temps))
		}
		for i, r := range temps {
			if want := start.Add(time.Duration(i) * time.Minute); r.Time.Truncate(time.Second) != want {
				t.Errorf("reading %d at %s, want %s", i, r.Time, want)
			}
		}
		if len(statuses) != 4 || statuses[3].Err != nil || !statuses[3].LastSeen.Equal(temps[3].Time) {
			t.Errorf("statuses = %+v, want 4 without errors", statuses)
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestRunBackoffAndStaleness(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m, open := mux(nil) // nothing answers
		var logs testutil.Buffer
		s := newSource(t, Config{Sensors: []SensorConfig{{Zone: "Indoor", Chip: "bme280"}}}, open, logTo(&logs))
		sk := &sinktest.Sink{}
		start := time.Now()
		stop := sinktest.Start(s, sk)
		time.Sleep(5 * time.Minute)
		if err := stop(); err != nil {
			t.Fatalf("Run: %v", err)
		}
		rs, statuses := sk.Snapshot()
		if len(rs) != 0 {
			t.Errorf("readings from a chip that does not answer: %+v", rs)
		}
		// Retries after 1, 2, 4 … 32 s, then every interval (1 min).
		wantAt := []time.Duration{0, 1, 3, 7, 15, 31, 63, 123, 183, 243}
		if len(statuses) != len(wantAt) {
			t.Fatalf("%d statuses, want %d: %+v", len(statuses), len(wantAt), statuses)
		}
		for i, st := range statuses {
			if want := start.Add(wantAt[i] * time.Second); !st.ErrTime.Equal(want) {
				t.Errorf("failure %d at %s, want %s", i, st.ErrTime.Sub(start), want.Sub(start))
			}
			if !errors.Is(st.Err, ErrNoAck) || !st.LastSeen.IsZero() || st.Source != "i2c1/0x76 bme280" {
				t.Errorf("status %d = %+v, want a NACK of i2c1/0x76 bme280", i, st)
			}
			var stale *StaleError
			if isStale := errors.As(st.Err, &stale); isStale != (wantAt[i] >= 180) {
				t.Errorf("status %d at %ds: stale %t, want stale from 3 intervals on", i, wantAt[i], isStale)
			} else if isStale && (!stale.Since.Equal(start) || stale.Missed != int(wantAt[i]/60)) {
				t.Errorf("stale = %+v", stale)
			}
		}
		if msg := statuses[len(statuses)-1].Err.Error(); !strings.Contains(msg, "stale: no reading since 2000-01-01T00:00:00Z (4 intervals missed): bme280 on i2c bus 1 at 0x76: start: no answer") {
			t.Errorf("stale status says %q", msg)
		}
		log := logs.String()
		for msg, n := range map[string]int{"sensor failed; retrying": 1, "sensor stale": 1, "sensor still failing": 0} {
			if got := strings.Count(log, msg); got != n {
				t.Errorf("%q logged %d times, want %d:\n%s", msg, got, n, log)
			}
		}
		if !strings.Contains(log, "chip=bme280") || !strings.Contains(log, "bus=1 address=0x76") {
			t.Errorf("log does not name chip, bus and address:\n%s", log)
		}
		m.Close()
	})
}

func TestRunRateLimitsLogs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, open := mux(nil)
		var logs testutil.Buffer
		s := newSource(t, Config{Sensors: []SensorConfig{{Zone: "Indoor", Chip: "sht3x", Interval: 10 * time.Second}}}, open, logTo(&logs))
		stop := sinktest.Start(s, &sinktest.Sink{})
		time.Sleep(time.Hour)
		stop()
		// One failure every 10 s for an hour: the first, then one every 15 minutes.
		if got := strings.Count(logs.String(), "sensor still failing"); got != 3 {
			t.Errorf("%d repeat logs in an hour, want 3:\n%s", got, logs.String())
		}
	})
}

func TestRunRecovers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := chip(0x44, concat([]i2ctest.IO{w(0xF3, 0x2D), w(0xF3, 0x2D)}, sht3xReads(1))...)
		b.Faults = map[int]error{0: i2cfake.NACK, 1: i2cfake.NACK}
		m, open := mux(map[uint16]*i2cfake.Bus{0x44: b})
		var logs testutil.Buffer
		s := newSource(t, Config{Sensors: []SensorConfig{{Zone: "Indoor", Chip: "sht3x"}}}, open, logTo(&logs))
		sk := &sinktest.Sink{}
		stop := sinktest.Start(s, sk)
		time.Sleep(30 * time.Second)
		stop()
		rs, statuses := sk.Snapshot()
		if len(rs) != 2 || len(statuses) != 3 || statuses[0].Err == nil || statuses[1].Err == nil || statuses[2].Err != nil {
			t.Errorf("readings %+v, statuses %+v: want two failures, then a reading", rs, statuses)
		}
		if !strings.Contains(logs.String(), "sensor reads again") {
			t.Errorf("recovery not logged:\n%s", logs.String())
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestRunSlowChipDoesNotDelayOthers: an SCD41 that was measuring needs
// 0.5 s at start (stop_periodic_measurement's execution time) and 5 s of
// warm-up; the SHT3x beside it
// on the same bus reads every second on time throughout.
func TestRunSlowChipDoesNotDelayOthers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		scd := sensirionChip(0x62, concat([]i2ctest.IO{w(0x36, 0xF6), w(0x3F, 0x86)}, scd4xOps[1:])...)
		scd.Faults = map[int]error{0: i2cfake.NACK} // a measuring SCD4x NACKs the wake-up
		m, open := mux(map[uint16]*i2cfake.Bus{0x44: sensirionChip(0x44, sht3xReads(8)...), 0x62: scd})
		cfg := Config{Sensors: []SensorConfig{
			{Zone: "Indoor", Chip: "scd41"},
			{Zone: "Indoor", Chip: "sht3x", Interval: time.Second},
		}}
		s := newSource(t, cfg, open, nil)
		rs, _, start := runFor(t, s, 7500*time.Millisecond)
		everySecond(t, of(rs, "i2c1/0x44 sht3x", sensors.Temperature), 8, start)
		co2 := of(rs, "i2c1/0x62 scd4x", sensors.CO2)
		if len(co2) != 1 || co2[0].Value != 556 {
			t.Fatalf("SCD41 readings %+v, want one of 556 ppm", co2)
		}
		// 0.5 s start, 5 s warm-up, one "not ready" a second before, the
		// 1 ms execution times of data-ready and read_measurement.
		if at := co2[0].Time.Sub(start); at < 6500*time.Millisecond || at > 6600*time.Millisecond {
			t.Errorf("SCD41 read after %s, want about 6.5 s", at)
		}
		// With the SCD41 as the zone's NDIR chip and the SHT3x as its
		// precise thermometer, each provides its own.
		if len(of(rs, "i2c1/0x62 scd4x", sensors.Temperature)) != 0 {
			t.Error("the SCD41 provides Temperature although the SHT3x is more precise")
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// hangDev is a device whose sense blocks until release is closed.
type hangDev struct {
	release chan struct{}
	opens   *atomic.Int32
}

func (h hangDev) sense() ([]value, error) {
	<-h.release
	return []value{{sensors.Temperature, 20}}, nil
}

// TestRunTimeout: a driver call that hangs is abandoned after the attempt
// timeout and reported; the device is opened anew once it has returned.
func TestRunTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		var opens atomic.Int32
		s := newSource(t, Config{Sensors: []SensorConfig{{Zone: "Indoor", Chip: "sht3x"}}}, nil, nil)
		p := s.specs[0]
		p.offBus = true
		p.openDev = func(context.Context, *guard) (device, error) {
			opens.Add(1)
			return hangDev{release: release, opens: &opens}, nil
		}
		sk := &sinktest.Sink{}
		start := time.Now()
		stop := sinktest.Start(s, sk)
		var once sync.Once
		unblock := func() { once.Do(func() { close(release) }) }
		defer stop()
		defer unblock()
		time.Sleep(20 * time.Second)
		_, statuses := sk.Snapshot()
		if len(statuses) == 0 || !errors.Is(statuses[0].Err, ErrTimeout) || statuses[0].ErrTime.Sub(start) != DefaultAttemptTimeout {
			t.Fatalf("statuses %+v, want a timeout after %s", statuses, DefaultAttemptTimeout)
		}
		if !strings.Contains(statuses[len(statuses)-1].Err.Error(), "still running") {
			t.Errorf("latest status %v, want the hung call still running", statuses[len(statuses)-1].Err)
		}
		unblock()
		time.Sleep(2 * time.Minute)
		stop()
		rs, _ := sk.Snapshot()
		if len(rs) == 0 || opens.Load() != 2 {
			t.Errorf("%d readings after the hang ended, %d opens; want readings from a second open", len(rs), opens.Load())
		}
	})
}

func TestRunSinkStopped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m, open := mux(map[uint16]*i2cfake.Bus{0x44: sensirionChip(0x44, sht3xReads(1)...)})
		s := newSource(t, Config{Sensors: []SensorConfig{{Zone: "Indoor", Chip: "sht3x"}}}, open, nil)
		err := s.Run(context.Background(), &sinktest.Sink{RecordErr: func(int) error { return sensors.ErrStopped }})
		if !errors.Is(err, sensors.ErrStopped) {
			t.Errorf("Run = %v, want ErrStopped", err)
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestRunRecordsAndReports: one poll of an SHT31 records its two values
// in its zone and reports the chip healthy.
func TestRunRecordsAndReports(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m, open := mux(map[uint16]*i2cfake.Bus{0x44: sensirionChip(0x44, sht3xReads(1)...)})
		s := newSource(t, Config{Sensors: []SensorConfig{{Zone: "Indoor", Chip: "sht3x"}}}, open, nil)
		rs, sts, _ := runFor(t, s, time.Second)
		got := map[sensors.Measurement]float64{}
		for _, r := range rs {
			if r.Zone != "Indoor" {
				t.Errorf("reading %+v, want zone Indoor", r)
			}
			got[r.Measurement] = r.Value
		}
		if got[sensors.Temperature] != 25.0 || got[sensors.Humidity] != 50.0 {
			t.Errorf("Indoor = %v, want 25 °C and 50 %%", got)
		}
		if len(sts) == 0 || sts[len(sts)-1].Err != nil || sts[len(sts)-1].Source != "i2c1/0x44 sht3x" {
			t.Errorf("statuses = %+v", sts)
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
	})
}
