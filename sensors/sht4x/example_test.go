package sht4x_test

import (
	"fmt"
	"log"

	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"

	"github.com/climated/climated/sensors/sht4x"
)

// The traffic of an SHT41 at 25 °C and 44 %RH, played back; on a Raspberry
// Pi the bus comes from i2creg.Open("1") after host.Init().
func Example() {
	bus := &i2ctest.Playback{Ops: []i2ctest.IO{
		{Addr: 0x44, W: []byte{0x89}},                               // read serial number
		{Addr: 0x44, R: []byte{0x1A, 0x2B, 0x6D, 0x3C, 0x4D, 0xF6}}, // 0x1A2B3C4D, CRCs
		{Addr: 0x44, W: []byte{0xFD}},                               // measure, high precision
		{Addr: 0x44, R: []byte{0x66, 0x66, 0x93, 0x66, 0x66, 0x93}}, // T, RH, CRCs
	}}
	d, err := sht4x.NewI2C(bus, sht4x.DefaultAddr, &sht4x.Opts{Precision: sht4x.High})
	if err != nil {
		log.Fatal(err)
	}
	var e physic.Env
	if err := d.Sense(&e); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("serial %08X: %s %s\n", d.Serial(), e.Temperature, e.Humidity)
	// Output: serial 1A2B3C4D: 25°C 44%rH
}
