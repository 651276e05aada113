package sps30_test

import (
	"errors"
	"fmt"
	"log"
	"time"

	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/host/v3"

	"github.com/climated/climated/sensors/sps30"
)

// Read the particulate matter every minute, and clean the fan every week
// (the chip's default interval, set here explicitly).
func Example() {
	if _, err := host.Init(); err != nil {
		log.Fatal(err)
	}
	b, err := i2creg.Open("1")
	if err != nil {
		log.Fatalf("open I²C bus 1: %v", err)
	}
	defer b.Close()
	d, err := sps30.NewI2C(b, sps30.Addr, &sps30.Opts{AutoCleaning: 7 * 24 * time.Hour})
	if err != nil {
		log.Fatal(err)
	}
	defer d.Halt()
	for range time.Tick(time.Minute) {
		var a sps30.Air
		switch err := d.Sense(&a); {
		case errors.Is(err, sps30.ErrNotReady), errors.Is(err, sps30.ErrWarmingUp), errors.Is(err, sps30.ErrCleaning):
		case err != nil:
			log.Print(err)
		default:
			fmt.Printf("PM2.5 %.1f µg/m³, PM10 %.1f µg/m³\n", a.PM25, a.PM10)
		}
	}
}
