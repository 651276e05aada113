// Package hw reads the house's sensors directly: chips on the Raspberry
// Pi's I²C bus through periph.io, DS18B20 thermometers on the kernel's
// 1-wire bus or behind a DS2482 I²C to 1-wire bridge, and the hub's own
// Wi-Fi signal. Source polls them for the hub, ReadOnce reads them once
// (climated read), Scan finds them (climated scan).
//
// # Chips
//
//	chip      address          measures                                   driver
//	bme280    0x76, 0x77       Temperature Humidity (Absolute)Pressure     periph bmxx80
//	bmp280    0x76, 0x77       Temperature (Absolute)Pressure              periph bmxx80
//	bmp180    0x77             Temperature (Absolute)Pressure              periph bmxx80
//	sht3x     0x44, 0x45       Temperature Humidity (SHT30/31/35, SHT85)   sensors/sht3x
//	sht4x     0x44–0x46        Temperature Humidity                        sensors/sht4x
//	hdc302x   0x44–0x47        Temperature Humidity                        periph hdc302x
//	scd4x     0x62             CO2 Temperature Humidity (SCD40/41)         sensors/scd4x
//	scd30     0x61             CO2 Temperature Humidity                    sensors/scd30
//	aht20     0x38             Temperature Humidity                        periph aht20
//	mcp9808   0x18–0x1f        Temperature                                 periph mcp9808
//	tmp102    0x48–0x4b        Temperature                                 periph tmp102
//	am2320    0x5c             Temperature Humidity                        periph am2320
//	ccs811    0x5a, 0x5b       CO2, estimated (eCO2)                       periph ccs811
//	sgp30     0x58             CO2, estimated (eCO2)                       sensors/sgp30
//	sen5x     0x69             PM1 PM25 PM4 PM10 (SEN50, SEN54, SEN55)     sensors/sen5x
//	                           SEN54/55: Temperature Humidity VOCIndex
//	                           SEN55: NOxIndex (sen50, sen54, sen55: the
//	                           variant, checked at start; sen5x: any)
//	sps30     0x69             PM1 PM25 PM4 PM10                           sensors/sps30
//	ds18b20   1-wire (w1)      Temperature                                 kernel w1_therm
//	ds18b20   DS2482 0x18–0x1f Temperature (DS18B20, DS1822, DS28EA00)     periph ds248x, wrapped
//
// The CO2 of a CCS811 or an SGP30 is an estimate from volatile organic
// compounds or hydrogen: its readings' Source says "(estimated CO2)", and
// in a zone with an NDIR chip (scd4x, scd30) the NDIR chip provides CO2.
// Where a chip has an ID register it is checked when the chip is opened,
// so a BMP280 configured as a BME280 fails with a *WrongChipError that
// says what it is. One rule decides what is supported: exactly what the
// driver used can drive, the same at scan and at start. A BMP280
// engineering sample (chip ID 0x56 or 0x57) is a BMP280 that periph's
// bmxx80 driver refuses: scan lists it as not supported, and start fails
// with an *UnsupportedError; so does a BME680 (0x61), which has no driver.
//
// # DS18B20s behind a DS2482
//
// A DS18B20 behind a DS2482-100 (one 1-wire channel, 0x18–0x1b) or
// DS2482-800 (eight, 0x18–0x1f) is configured with the bridge's address
// and, on a DS2482-800, its channel:
//
//	sensors:
//	  - {zone: Cellar, chip: ds18b20, bridge: 0x18, device: 28-0417c1b2e3ff}
//	  - {zone: Attic, chip: ds18b20, bus: 1, bridge: 0x1c, channel: 3, device: 28-051a2b3c4dff}
//
// The device ID is the kernel's name (family, serial number), so a
// thermometer moves between the kernel's w1 bus and a bridge without a new
// ID; Scan lists the devices behind every bridge it finds. The sensors
// behind one bridge share it: its lock is held for one 1-wire transaction
// (a few milliseconds), and across the conversion (750 ms at 12 bits) only
// for a parasite-powered DS18B20 (Read Power Supply tells), whose strong
// pull-up the next 1-wire command would end. Nothing is ever written to a
// DS18B20's EEPROM. A reading is Convert T, then Read Scratchpad with its
// CRC checked; a scratchpad of all ones (no chip answered its ROM), a wrong
// CRC, a configuration byte that is not a DS18B20's, and the 85 °C
// power-on value are faults. periph's ds248x is wrapped around its faults
// (ds2482.go), and its ds18b20 package is not used (ds18b20.go).
//
// # The SGP30
//
// The SGP30's algorithm needs a measurement every second from its start,
// whatever the interval at which climated records it: an opened SGP30
// measures every second in a goroutine of its own, on the shared bus one
// transaction at a time, and the poller takes the latest measurement at
// its interval. The chip's fixed 400 ppm of the first 15 s are never
// reported; its first reading comes 15.5 s after the start. When its zone
// has a temperature and a humidity (from the chips that provide them, at
// most 10 minutes old), the chip is given the air's absolute humidity
// whenever it changes by 0.1 g/m³ or more. Its baseline is not saved: after
// each start the chip needs about 12 hours to settle it.
//
// # Turning chip values into readings
//
// Calibration offsets (offsets.temperature, .humidity, .pressure) are added
// to what the chip reports; humidity is then kept within 0…100 %. The
// chip's station pressure is AbsolutePressure; Pressure is reduced to sea
// level from it and the configured altitude by SeaLevelPressure:
//
//	p₀ = p · (1 − 0.0065 · h / 288.15)^−5.2559
//
// Every value is checked against the chip's operating range and the
// measurement's range (sensors.Lookup); a value outside drops the whole
// sample with a *RangeError.
//
// When a zone has several chips measuring the same thing, one provides it
// by these rules: a sensor that lists provides gives exactly those
// measurements; otherwise the most precise chip does (SHT4x/SHT3x/HDC302x
// before the MCP9808, TMP102 and DS18B20, before the BME280, AHT20, BMP180
// and AM2320, with the self-heated CO₂ modules last for temperature and
// humidity), the first configured on a tie.
//
// The hub's Wi-Fi signal is wifi_status of the Wi-Fi zone (by default the
// first sensor's zone): the level in /proc/net/wireless, in dBm, without
// its sign (WiFiStatus), so that Netatmo's marks fall where they mean the
// same signal: 56 good (−56 dBm), 71 average, 86 bad. A hub without a
// wireless interface reports no wifi_status and says so once in the log.
//
// # Polling
//
// Every sensor has its own goroutine and interval (default 1 minute): the
// first reading at start, then one at every multiple of the interval. Chips
// share a bus through a mutex held for one transaction at a time, never
// across a driver's sleep, so a chip that takes seconds (an SCD4x's 5 s
// start, a DS18B20's 750 ms conversion) delays no other; a chip with a
// goroutine of its own (the SGP30) is stopped whenever it is opened anew
// and when polling ends. Every driver call is bounded by the attempt
// timeout (15 s): after it the sensor's bus transactions fail, so a driver
// that loops on the bus returns, and the sensor is opened anew.
//
// A failed attempt is retried after 1 s, then 2, 4 … up to the interval;
// after three failures in a row the chip is opened anew. The first failure
// is logged at once (with chip, bus and address), repeats at most every 15
// minutes with their count, and the recovery once. A sensor without a
// reading for stale_after intervals (3) is stale: its Status carries a
// *StaleError (with the time of its latest reading), it is logged once, and
// its old readings are never repeated as if they were current. A chip
// without a new measurement (errNotReady) is asked again a second later;
// when that lasts longer than three of its measurement periods (at least
// 15 s) it counts as a failure.
//
// Faults are *Error values naming chip, bus, address (and a DS18B20's
// device ID) and operation; the
// kind is in the chain for errors.Is: ErrNoBus (no /dev/i2c-N),
// ErrPermission, ErrNoAck (the chip NACKs, or no presence pulse on a
// 1-wire bus), ErrAllOnes (a read of nothing but 0xFF: nothing drives the
// bus), ErrCRC (a Sensirion word, a DS18B20's scratchpad or the kernel's
// 1-wire check), ErrShort (a 1-wire bus shorted or held low), ErrTimeout;
// *WrongChipError, *UnsupportedError and *RangeError for errors.As. A
// faulty reading is never recorded, and other sensors carry on.
package hw
