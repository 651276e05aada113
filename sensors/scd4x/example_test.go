package scd4x_test

import (
	"errors"
	"fmt"
	"log"
	"time"

	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"

	"github.com/climated/climated/sensors/scd4x"
)

// The datasheet's example measurement (section 3.5.2), played back; on a
// Raspberry Pi the bus comes from i2creg.Open("1") after host.Init().
func Example() {
	bus := &i2ctest.Playback{Ops: []i2ctest.IO{
		{Addr: 0x62, W: []byte{0x36, 0xF6}},                                            // wake_up
		{Addr: 0x62, W: []byte{0x21, 0xB1}},                                            // start_periodic_measurement
		{Addr: 0x62, W: []byte{0xE4, 0xB8}}, {Addr: 0x62, R: []byte{0x80, 0x06, 0x04}}, // ready
		{Addr: 0x62, W: []byte{0xEC, 0x05}}, {Addr: 0x62, R: []byte{0x01, 0xF4, 0x33, 0x66, 0x67, 0xA2, 0x5E, 0xB9, 0x3C}},
	}}
	d, err := scd4x.NewI2C(bus, scd4x.Addr)
	if err != nil {
		log.Fatal(err)
	}
	var e scd4x.Env
	for {
		err := d.Sense(&e)
		if errors.Is(err, scd4x.ErrNotReady) {
			time.Sleep(time.Second)
			continue
		}
		if err != nil {
			log.Fatal(err)
		}
		break
	}
	fmt.Printf("%.0f ppm %.1f °C %.1f %%RH\n", e.CO2, e.Temperature.Celsius(), float64(e.Humidity)/float64(physic.PercentRH))
	// Output: 500 ppm 25.0 °C 37.0 %RH
}
