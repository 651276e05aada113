package hw

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"periph.io/x/conn/v3/i2c"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/sen5x"
	"github.com/climated/climated/sensors/sensirion"
	"github.com/climated/climated/sensors/sps30"
)

// Sensirion's particulate matter sensors, read with climated's drivers:
// a value the chip does not have (the NOx index of a SEN54, the VOC index
// in its first seconds, any value while the chip warms up) is no reading
// at all, never 0. The chips measure every second on their own; the
// poller asks for the latest no sooner than their 30 s warm-up after start.
var (
	pm   = []sensors.Measurement{sensors.PM1, sensors.PM25, sensors.PM4, sensors.PM10}
	pmTH = []sensors.Measurement{sensors.PM1, sensors.PM25, sensors.PM4, sensors.PM10, sensors.VOCIndex, sensors.NOxIndex, sensors.Temperature, sensors.Humidity}
)

// sen5xChips are the SEN5x: sen5x for any of them, what the variant lacks
// never read; sen50, sen54, sen55 for the one configured, so that the
// configuration cannot ask a variant for what it lacks and a chip of
// another variant fails at start. By the datasheet (v2, section 1): the
// SEN50 measures particulate matter only, the SEN54 adds humidity,
// temperature and the VOC index, the SEN55 the NOx index too.
func sen5xChips() []*chipInfo {
	pmVTH := []sensors.Measurement{sensors.PM1, sensors.PM25, sensors.PM4, sensors.PM10, sensors.VOCIndex, sensors.Temperature, sensors.Humidity}
	chip := func(name string, measures []sensors.Measurement, note string) *chipInfo {
		return &chipInfo{name: name, addrs: []uint16{sen5x.Addr}, measures: measures, rank: 7, warmup: sen5x.WarmUp + time.Second,
			period: time.Second, temp: [2]float64{-10, 50}, open: openSEN5x(strings.ToUpper(name)), note: "particulate matter from 31 s after start" + note}
	}
	return []*chipInfo{
		chip("sen5x", pmTH, "; VOC index (SEN54, SEN55) and NOx index (SEN55) once the chip has them; what the variant does not measure is never read as 0"),
		chip("sen50", pm, ""),
		chip("sen54", pmVTH, "; VOC index once the chip has it"),
		chip("sen55", pmTH, "; VOC and NOx indices once the chip has them"),
	}
}

type sen5xDev struct{ d *sen5x.Dev }

// openSEN5x opens a SEN5x that must be product (SEN50, SEN54, SEN55), or
// any of them for SEN5X.
func openSEN5x(product string) func(i2c.Bus, uint16, startOpts) (device, error) {
	return func(b i2c.Bus, addr uint16, _ startOpts) (device, error) {
		d, err := sen5x.NewI2C(b, addr, nil)
		if err != nil {
			return nil, err
		}
		if got := d.Product(); product != "SEN5X" && got != product {
			return nil, fmt.Errorf("sen5x: the chip at 0x%02x is a %s, configured as %s: write chip: %s (or sen5x)", addr, got, strings.ToLower(product), strings.ToLower(got))
		}
		return sen5xDev{d}, nil
	}
}

func (s sen5xDev) sense() ([]value, error) {
	var a sen5x.Air
	if err := s.d.Sense(&a); err != nil {
		return nil, notReadyAQ(err)
	}
	return present(
		value{sensors.PM1, a.PM1}, value{sensors.PM25, a.PM25}, value{sensors.PM4, a.PM4}, value{sensors.PM10, a.PM10},
		value{sensors.VOCIndex, a.VOC}, value{sensors.NOxIndex, a.NOx},
		value{sensors.Temperature, a.Temperature}, value{sensors.Humidity, a.Humidity},
	), nil
}

type sps30Dev struct{ d *sps30.Dev }

func openSPS30(b i2c.Bus, addr uint16, _ startOpts) (device, error) {
	d, err := sps30.NewI2C(b, addr, nil)
	if err != nil {
		return nil, err
	}
	return sps30Dev{d}, nil
}

func (s sps30Dev) sense() ([]value, error) {
	var a sps30.Air
	if err := s.d.Sense(&a); err != nil {
		return nil, notReadyAQ(err)
	}
	return present(value{sensors.PM1, a.PM1}, value{sensors.PM25, a.PM25}, value{sensors.PM4, a.PM4}, value{sensors.PM10, a.PM10}), nil
}

// notReadyAQ is errNotReady for the drivers' errors that are no fault: no
// new measurement, warming up, cleaning the fan.
func notReadyAQ(err error) error {
	for _, e := range []error{sen5x.ErrNotReady, sen5x.ErrWarmingUp, sen5x.ErrCleaning, sps30.ErrNotReady, sps30.ErrWarmingUp, sps30.ErrCleaning} {
		if errors.Is(err, e) {
			return errNotReady
		}
	}
	return err
}

// present is vs without the values the chip does not have (NaN).
func present(vs ...value) []value {
	out := vs[:0]
	for _, v := range vs {
		if !math.IsNaN(v.v) {
			out = append(out, v)
		}
	}
	return out
}

// SEN5x and SPS30 both answer at 0x69; each answers its own product
// command, the SEN5x read product name (0xD014, 20 ms, "SEN50", "SEN54"
// or "SEN55"), the SPS30 read product type (0xD002, at once, "00080000").
// Sensirion's SEN5x driver waits 50 ms for the name.
func probeSEN5x(d *i2c.Dev) (Found, bool) {
	w, err := sensirion.Read(d, sensirion.Encode8(0xD014), 50*time.Millisecond, 16)
	if err != nil {
		return Found{}, false
	}
	name := sensirion.String(w)
	switch name {
	case "SEN50", "SEN54", "SEN55":
		return Found{Chip: strings.ToLower(name), Name: name, Detail: fmt.Sprintf("product name %s, crc ok", name)}, true
	}
	return Found{}, false
}

func probeSPS30(d *i2c.Dev) (Found, bool) {
	w, err := sensirion.Read(d, sensirion.Encode8(0xD002), 0, 4)
	if err != nil || sensirion.String(w) != sps30.ProductType {
		return Found{}, false
	}
	return Found{Chip: "sps30", Name: "SPS30", Detail: "product type 00080000, crc ok"}, true
}
