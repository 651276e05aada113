package sgp30_test

import (
	"errors"
	"fmt"
	"log"
	"time"

	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/host/v3"

	"github.com/climated/climated/sensors/sgp30"
)

// Measure every second, as the chip's algorithm needs, and print the
// estimate once a minute.
func Example() {
	if _, err := host.Init(); err != nil {
		log.Fatal(err)
	}
	b, err := i2creg.Open("1")
	if err != nil {
		log.Fatalf("open I²C bus 1: %v", err)
	}
	defer b.Close()
	d, err := sgp30.NewI2C(b, sgp30.Addr, nil)
	if err != nil {
		log.Fatal(err)
	}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for i := 1; ; i++ {
		<-tick.C
		var a sgp30.Air
		err := d.Sense(&a)
		switch {
		case errors.Is(err, sgp30.ErrWarmingUp):
			continue
		case err != nil:
			log.Print(err)
		case i%60 == 0:
			fmt.Printf("%d ppm CO2eq (estimated), %d ppb TVOC\n", a.CO2, a.TVOC)
		}
	}
}
