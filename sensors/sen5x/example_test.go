package sen5x_test

import (
	"errors"
	"fmt"
	"log"
	"math"
	"time"

	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/host/v3"

	"github.com/climated/climated/sensors/sen5x"
)

// Read the air every minute; values the chip does not have (yet) are NaN.
func Example() {
	if _, err := host.Init(); err != nil {
		log.Fatal(err)
	}
	b, err := i2creg.Open("1")
	if err != nil {
		log.Fatalf("open I²C bus 1: %v", err)
	}
	defer b.Close()
	d, err := sen5x.NewI2C(b, sen5x.Addr, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer d.Halt()
	for range time.Tick(time.Minute) {
		var a sen5x.Air
		switch err := d.Sense(&a); {
		case errors.Is(err, sen5x.ErrNotReady), errors.Is(err, sen5x.ErrWarmingUp), errors.Is(err, sen5x.ErrCleaning):
		case err != nil:
			log.Print(err)
		case math.IsNaN(a.PM25):
			fmt.Printf("%s: %.1f °C, PM2.5 not yet\n", d.Product(), a.Temperature)
		default:
			fmt.Printf("%s: %.1f µg/m³ PM2.5, VOC index %.0f\n", d.Product(), a.PM25, a.VOC)
		}
	}
}
