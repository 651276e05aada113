package hw

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/climated/climated/sensors"
)

// w1Therm is a DS18B20 (or DS18S20, DS1822, MAX31850) on the kernel's
// 1-wire bus (dtoverlay=w1-gpio, data on GPIO4 with a 4.7 kΩ pull-up),
// read from its w1_slave file:
//
//	72 01 4b 46 7f ff 0e 10 57 : crc=57 YES
//	72 01 4b 46 7f ff 0e 10 57 t=23125
//
// The kernel checks the scratchpad's CRC ("YES"/"NO"); t is in m°C.
type w1Therm struct{ dir string }

// powerOnTemp is the scratchpad's reset value, in m°C: a chip that
// reports it did not convert (parasitic power failing, or a read straight
// after power-up). An indoor or outdoor 85 °C is not a reading either.
const powerOnTemp = 85000

var errPowerOn = errors.New("85 °C is the chip's power-on value: it did not convert (check its power supply)")

func (w w1Therm) sense() ([]value, error) {
	data, err := os.ReadFile(filepath.Join(w.dir, "w1_slave"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s is not on the 1-wire bus (is dtoverlay=w1-gpio set, and the chip wired?)", ErrNoAck, filepath.Base(w.dir))
	}
	if err != nil {
		return nil, err
	}
	mC, err := parseW1Slave(string(data))
	if err != nil {
		return nil, err
	}
	return []value{{sensors.Temperature, float64(mC) / 1000}}, nil
}

func parseW1Slave(s string) (int, error) {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) != 2 {
		return 0, fmt.Errorf("w1_slave: want 2 lines, got %d: %q", len(lines), s)
	}
	if allOnesHex(lines[0]) {
		return 0, ErrAllOnes
	}
	if !strings.HasSuffix(strings.TrimSpace(lines[0]), "YES") {
		return 0, fmt.Errorf("%w: the kernel's check of the scratchpad failed: %q", ErrCRC, lines[0])
	}
	_, t, ok := strings.Cut(lines[1], "t=")
	if !ok {
		return 0, fmt.Errorf("w1_slave: no t= in %q", lines[1])
	}
	mC, err := strconv.Atoi(strings.TrimSpace(t))
	if err != nil {
		return 0, fmt.Errorf("w1_slave: temperature %q: %w", t, err)
	}
	if mC == powerOnTemp {
		return 0, errPowerOn
	}
	return mC, nil
}

// allOnesHex reports a scratchpad of ff bytes: nothing answered.
func allOnesHex(line string) bool {
	data, _, _ := strings.Cut(line, ":")
	f := strings.Fields(data)
	for _, b := range f {
		if b != "ff" {
			return false
		}
	}
	return len(f) > 0
}
