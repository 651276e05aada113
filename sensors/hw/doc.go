// Package hw reads the house's sensors directly: chips on the Raspberry
// Pi's I²C bus through periph.io, DS18B20 thermometers on the kernel's
// 1-wire bus or behind a DS2482 I²C to 1-wire bridge, and the hub's own
// Wi-Fi signal as wifi_status.
//
// New makes a Source of a Config (the hw part of climated's configuration
// file). The Source polls every sensor in a goroutine of its own and
// records its readings into a sensors.Sink; Source.ReadOnce reads every
// sensor once (climated read); Scan and ScanBus find the chips that
// answer and ConfigLines writes their configuration (climated scan).
// A faulty reading is never recorded, and the other sensors carry on:
// every fault is an *Error naming the chip, bus and address, its kind
// told by errors.Is and errors.As (errors.go).
//
// One rule decides what is supported: exactly what the driver climated
// uses can drive, the same at scan and at start. The chips, their
// addresses and what climated does not use of them are in docs/sensors.md;
// the driver of each in docs/development.md, "Sensors on the hub".
//
// Where to start reading:
//
//   - chips.go: the catalogue of chips (names, addresses, measurements,
//     rank, warm-up); chip_env.go, chip_co2.go, chip_aq.go and
//     chip_sgp30.go open each kind, checking its ID where it has one.
//   - source.go and poller.go: a sensor's goroutine, its attempts bounded
//     in time, the back-off after a failure, what is logged, and when a
//     sensor is stale.
//   - bus.go: a bus shared by its sensors a transaction at a time, and the
//     guard each driver sees.
//   - convert.go: offsets, ranges, sea-level Pressure, and which chip of a
//     zone provides what (assignProviders).
//   - ds2482.go and ds18b20.go: DS18B20s behind a DS2482; w1.go those on
//     the kernel's 1-wire bus; wifi.go the Wi-Fi signal; scan.go Scan.
package hw
