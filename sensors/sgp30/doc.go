// Package sgp30 controls a Sensirion SGP30 metal-oxide gas sensor over I²C,
// with the CRC of every word checked: its CO₂ equivalent (CO2eq, often
// called eCO2) and total volatile organic compounds (TVOC).
//
// The SGP30 does not measure CO₂. It measures hydrogen and ethanol and
// infers a CO₂ equivalent from them, against a baseline its own algorithm
// keeps; present it as an estimate. The algorithm needs a measurement every
// second from init_air_quality on (NewI2C sends it): call Sense every second
// and keep the latest value rather than measuring when a reading is wanted.
// For 15 s after init_air_quality the chip reports fixed values of 400 ppm
// and 0 ppb; Sense returns ErrWarmingUp instead of them. The baseline takes
// 12 hours to settle after power-up unless one saved by Baseline (less than
// a week old) is given back in Opts.
//
// Datasheet (the commands, their execution times, the 15 s initialisation
// phase and the humidity compensation format are in its chapter on
// operation and communication):
// https://sensirion.com/media/documents/984E0DD5/61644B8B/Sensirion_Gas_Sensors_Datasheet_SGP30.pdf
package sgp30
