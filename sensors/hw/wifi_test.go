package hw

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/internal/sinktest"
)

const wireless = `Inter-| sta-|   Quality        |   Discarded packets               | Missed | WE
 face | tus | link level noise |  nwid  crypt   frag  retry   misc | beacon | 22
  wlan0: 0000   56.  -54.  -256        0      0      0      0     12        0
  wlan1: 0000   30.  195.  0           0      0      0      0      0        0
`

// TestWiFiEveryLevel reads the hub's Wi-Fi at the levels that
// mqtt/decode's TestSignalEverySource sends from every MQTT format, in
// both of /proc/net/wireless's notations: the same level reads the same
// wifi_status, the catalogue's sensors.SignalFromDBm (86 bad, 71 average,
// 56 good; −50 dBm is 50, −90 dBm is 90).
func TestWiFiEveryLevel(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ dBm, want float64 }{
		{-40, 40}, {-50, 50}, {-56, 56}, {-65, 65}, {-71, 71}, {-86, 86}, {-90, 90}, {-100, 100},
	} {
		for _, level := range []float64{tt.dBm, 256 + tt.dBm} {
			path := filepath.Join(dir, "wireless")
			data := strings.Replace(wireless, "-54.", fmt.Sprintf("%g.", level), 1)
			if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
			vs, err := (&wifi{path: path, iface: "wlan0"}).sense()
			if err != nil {
				t.Fatal(err)
			}
			if len(vs) != 1 || vs[0].m != sensors.WiFiStatus || vs[0].v != tt.want {
				t.Errorf("level %g: %+v, want wifi_status %g", level, vs, tt.want)
			}
		}
	}
}

func TestParseWireless(t *testing.T) {
	tests := []struct {
		name, data, iface string
		wantIface         string
		wantDBm           float64
		wantErr           string
	}{
		{"first interface", wireless, "", "wlan0", -54, ""},
		{"unsigned level", wireless, "wlan1", "wlan1", -61, ""},
		{"missing interface", wireless, "wlan2", "", 0, "wlan2 is not listed"},
		{"no interfaces", strings.Join(strings.Split(wireless, "\n")[:2], "\n"), "", "", 0, "lists none"},
		{"not associated", strings.Replace(wireless, "-54.", "0.", 1), "wlan0", "wlan0", 0, "not associated"},
		{"relative level", strings.Replace(wireless, "-54.", "70.", 1), "wlan0", "wlan0", 0, "not in dBm"},
		{"short line", "h\nh\n wlan0: 0000 56.\n", "", "wlan0", 0, "fields"},
		{"garbage level", "h\nh\n wlan0: 0000 56. abc. 0\n", "", "wlan0", 0, "level \"abc.\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			iface, level, err := parseWireless([]byte(tt.data), tt.iface)
			var dBm float64
			if err == nil {
				dBm, err = levelDBm(level)
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || iface != tt.wantIface || dBm != tt.wantDBm {
				t.Errorf("= %q %g %v, want %q %g", iface, dBm, err, tt.wantIface, tt.wantDBm)
			}
		})
	}
}

func TestRunWiFi(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "wireless")
	if err := os.WriteFile(path, []byte(wireless), 0o644); err != nil {
		t.Fatal(err)
	}
	synctest.Test(t, func(t *testing.T) {
		cfg := Config{WiFi: WiFiConfig{Zone: "Indoor"}}
		s, err := New(cfg, &Options{Wireless: path})
		if err != nil {
			t.Fatal(err)
		}
		sk := &sinktest.Sink{}
		stop := sinktest.Start(s, sk)
		time.Sleep(90 * time.Second)
		stop()
		rs, statuses := sk.Snapshot()
		if len(rs) != 2 || rs[0].Measurement != sensors.WiFiStatus || rs[0].Value != 54 || rs[0].Zone != "Indoor" || rs[0].Source != "wifi" {
			t.Errorf("readings = %+v, want wifi_status 54 twice", rs)
		}
		if len(statuses) != 2 || statuses[1].Err != nil {
			t.Errorf("statuses = %+v", statuses)
		}
	})
}

// TestRunNoWiFi: a wired hub says once that it has no Wi-Fi and reports
// no fault, and finds a Wi-Fi that comes up later; a configured interface
// that is missing is a fault.
func TestRunNoWiFi(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wireless")
	synctest.Test(t, func(t *testing.T) {
		var logs testutil.Buffer
		s, err := New(Config{}, &Options{Wireless: path, Logger: logTo(&logs)})
		if err != nil {
			t.Fatal(err)
		}
		sk := &sinktest.Sink{}
		start := time.Now()
		stop := sinktest.Start(s, sk)
		time.Sleep(150 * time.Second)
		if rs, statuses := sk.Snapshot(); len(statuses) != 0 || len(rs) != 0 {
			t.Errorf("readings %+v, statuses %+v for an absent Wi-Fi", rs, statuses)
		}
		if strings.Count(logs.String(), "no Wi-Fi interface") != 1 {
			t.Errorf("log:\n%s", logs.String())
		}
		// Wi-Fi comes up: found at the next interval.
		if err := os.WriteFile(path, []byte(wireless), 0o644); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Until(start.Add(5*time.Minute + time.Second)))
		stop()
		if rs, _ := sk.Snapshot(); len(rs) != 3 || !rs[0].Time.Equal(start.Add(3*time.Minute)) {
			t.Errorf("readings %+v, want wifi_status at 3, 4 and 5 min", rs)
		}

		s, err = New(Config{WiFi: WiFiConfig{Interface: "wlan0"}}, &Options{Wireless: "/nonexistent/wireless"})
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.ReadOnce(context.Background())
		if !errors.Is(err, ErrNoWiFi) || !strings.Contains(err.Error(), "wifi wlan0: read:") {
			t.Errorf("ReadOnce = %v, want ErrNoWiFi naming wlan0", err)
		}
	})
}
