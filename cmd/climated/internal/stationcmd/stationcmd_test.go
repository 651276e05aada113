package stationcmd

import (
	"net"
	"strings"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/sensors/station"
)

// TestPrint: the settings name the hub's LAN address, its port and the
// upload path with its secret; a hub on loopback is told how to be
// reached first.
func TestPrint(t *testing.T) {
	cfg := config.Default()
	cfg.Listen = "0.0.0.0:8473"
	cfg.Station = &station.Config{}
	lan := []net.Addr{&net.IPNet{IP: net.IPv4(127, 0, 0, 1), Mask: net.CIDRMask(8, 32)}, &net.IPNet{IP: net.IPv4(192, 168, 1, 20), Mask: net.CIDRMask(24, 32)}}
	var out strings.Builder
	if err := Print(&out, cfg, "s3cret", lan); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Protocol Type:     Ecowitt", "Server IP/Host:    192.168.1.20\n", "Path:              /station/s3cret/data/report/", "Port:              8473",
		"/station/s3cret/weatherstation/updateweatherstation.php?"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "127.0.0.1") {
		t.Errorf("a loopback address offered to a station:\n%s", out.String())
	}
	cfg.Listen = "127.0.0.1:8473"
	if err := Print(&out, cfg, "s3cret", lan); err == nil || !strings.Contains(err.Error(), "listen: 0.0.0.0:8473") {
		t.Errorf("a hub on loopback: %v", err)
	}
}
