package hw

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/climated/climated/sensors"
)

// wifiChip describes the hub's Wi-Fi interface as a pseudo-chip.
var wifiChip = &chipInfo{name: chipWiFi, measures: []sensors.Measurement{sensors.WiFiStatus}, period: 0, temp: [2]float64{-60, 85}}

// wifi reads the signal level of a wireless interface from
// /proc/net/wireless, whose lines after the two header lines are
//
//	wlan0: 0000   56.  -54.  -256        0      0      0      0     12        0
//
// (interface, status, link quality, level, noise, …). The level is in dBm
// where the driver reports dBm (cfg80211 drivers, such as the Raspberry
// Pi's brcmfmac, do); older drivers print it as an unsigned byte, 256 +
// dBm, which is taken back. A level of 0 means not associated, and a
// level that is neither is an error rather than a guess.
type wifi struct {
	path  string
	iface string // "": the first interface listed
}

func (w *wifi) sense() ([]value, error) {
	data, err := os.ReadFile(w.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s does not exist", ErrNoWiFi, w.path)
	}
	if err != nil {
		return nil, err
	}
	iface, level, err := parseWireless(data, w.iface)
	if err != nil {
		return nil, err
	}
	dBm, err := levelDBm(level)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", iface, err)
	}
	status, err := sensors.SignalFromDBm(dBm)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", iface, err)
	}
	return []value{{sensors.WiFiStatus, status}}, nil
}

// parseWireless finds the level of iface (or of the first interface).
func parseWireless(data []byte, iface string) (string, float64, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 0; sc.Scan(); line++ {
		if line < 2 {
			continue // headers
		}
		name, rest, ok := strings.Cut(sc.Text(), ":")
		name = strings.TrimSpace(name)
		if !ok || (iface != "" && name != iface) {
			continue
		}
		f := strings.Fields(rest)
		if len(f) < 3 {
			return name, 0, fmt.Errorf("%s: line %d of /proc/net/wireless has %d fields, want at least 4", name, line+1, len(f)+1)
		}
		level, err := strconv.ParseFloat(strings.TrimSuffix(f[2], "."), 64)
		if err != nil {
			return name, 0, fmt.Errorf("%s: level %q: %w", name, f[2], err)
		}
		return name, level, nil
	}
	if iface != "" {
		return "", 0, fmt.Errorf("%w: %s is not listed in /proc/net/wireless (is it up?)", ErrNoWiFi, iface)
	}
	return "", 0, fmt.Errorf("%w: /proc/net/wireless lists none", ErrNoWiFi)
}

// levelDBm interprets a level as /proc/net/wireless prints it.
func levelDBm(level float64) (float64, error) {
	switch {
	case level < 0 && level >= -120:
		return level, nil
	case level >= 136 && level <= 255: // unsigned byte: 256 − 120 … 256 − 1
		return level - 256, nil
	case level == 0:
		return 0, errors.New("not associated with an access point (level 0)")
	default:
		return 0, fmt.Errorf("level %g is not in dBm (a driver reporting a relative level)", level)
	}
}

func busKind(bus string) string {
	if bus == "w1" {
		return "1-wire"
	}
	return "i2c"
}
