// Package sen5x controls a Sensirion SEN5x environmental sensor node
// (SEN50, SEN54, SEN55) over I²C, with the CRC of every word checked:
// particulate matter (PM1, PM2.5, PM4, PM10 in µg/m³) on all three, relative
// humidity, temperature and the VOC index on the SEN54 and SEN55, the NOx
// index on the SEN55 only.
//
// A value the chip does not have is NaN, never 0: a quantity the variant
// does not measure, a word the chip reports as unknown (0xFFFF for the
// particulate matter, 0x7FFF for the others: the VOC index is unknown for
// its first seconds after start, the NOx index for about 10 s), and the
// particulate matter of the first 30 s after start, before the measurement
// is stable. The chip makes a measurement every second; Sense reads the
// latest, or returns ErrNotReady when there is no new one.
//
// Every command goes through sensirion.Read or sensirion.Exec: written in a
// transaction of its own, its answer read in another after the command's
// execution time.
//
// Datasheet: "Datasheet SEN5x", version 2, March 2022 (commands and their
// execution times in table 12, section 6.1; measured values in 6.1.5; fan
// auto cleaning in 5.2; device status register in 5.4; start-up time in
// table 3):
// https://sensirion.com/media/documents/6791EFA0/62A1F68F/Sensirion_Datasheet_Environmental_Node_SEN5x.pdf
// Sensirion's driver, whose waits this package keeps where they are longer
// than the datasheet's: github.com/Sensirion/raspberry-pi-i2c-sen5x,
// sen5x_i2c.c.
package sen5x
