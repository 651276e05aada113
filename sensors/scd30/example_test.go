package scd30_test

import (
	"errors"
	"fmt"
	"log"
	"time"

	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"

	"github.com/climated/climated/sensors/scd30"
)

// The interface description's example measurement, played back; on a
// Raspberry Pi the bus comes from i2creg.Open("1") after host.Init().
func Example() {
	bus := &i2ctest.Playback{Ops: []i2ctest.IO{
		{Addr: 0x61, W: []byte{0xD1, 0x00}}, {Addr: 0x61, R: []byte{0x03, 0x42, 0xF3}}, // firmware 3.66
		{Addr: 0x61, W: []byte{0x46, 0x00}}, {Addr: 0x61, R: []byte{0x00, 0x05, 0x74}}, // interval 5 s already
		{Addr: 0x61, W: []byte{0x00, 0x10, 0x03, 0xF5, 0xDB}},                          // start at 1013 hPa
		{Addr: 0x61, W: []byte{0x02, 0x02}}, {Addr: 0x61, R: []byte{0x00, 0x00, 0x81}}, // not ready
		{Addr: 0x61, W: []byte{0x02, 0x02}}, {Addr: 0x61, R: []byte{0x00, 0x01, 0xB0}}, // ready
		{Addr: 0x61, W: []byte{0x03, 0x00}}, {Addr: 0x61, R: []byte{
			0x43, 0xDB, 0xCB, 0x8C, 0x2E, 0x8F, 0x41, 0xD9, 0x70, 0xE7, 0xFF, 0xF5, 0x42, 0x43, 0xBF, 0x3A, 0x1B, 0x74}},
	}}
	d, err := scd30.NewI2C(bus, scd30.Addr, &scd30.Opts{Interval: 5 * time.Second, AmbientPressure: 1013 * 100 * physic.Pascal})
	if err != nil {
		log.Fatal(err)
	}
	var e scd30.Env
	for {
		err := d.Sense(&e)
		if errors.Is(err, scd30.ErrNotReady) {
			time.Sleep(time.Millisecond) // a second on a real module
			continue
		}
		if err != nil {
			log.Fatal(err)
		}
		break
	}
	fmt.Printf("%.0f ppm %.1f °C %.1f %%RH\n", e.CO2, e.Temperature.Celsius(), float64(e.Humidity)/float64(physic.PercentRH))
	// Output: 439 ppm 27.2 °C 48.8 %RH
}
