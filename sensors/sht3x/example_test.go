package sht3x_test

import (
	"fmt"
	"log"

	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/host/v3"

	"github.com/climated/climated/sensors/sht3x"
)

func Example() {
	if _, err := host.Init(); err != nil {
		log.Fatal(err)
	}
	b, err := i2creg.Open("1")
	if err != nil {
		log.Fatalf("open I²C bus 1: %v", err)
	}
	defer b.Close()
	d, err := sht3x.NewI2C(b, sht3x.DefaultAddr, nil)
	if err != nil {
		log.Fatal(err)
	}
	var e physic.Env
	if err := d.Sense(&e); err != nil {
		log.Fatal(err)
	}
	fmt.Println(e.Temperature, e.Humidity)
}
