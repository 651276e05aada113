// Package scd30 controls a Sensirion SCD30 NDIR CO₂, temperature and
// humidity module over I²C in continuous measurement mode, with the CRC of
// every word checked.
//
// The module answers slowly: it stretches the clock, and between writing a
// command and reading its answer the master must wait (3 ms here). On a
// Raspberry Pi, whose I²C controller mishandles clock stretching, use the
// i2c-gpio overlay or a bus clock of 50 kHz or less.
//
// Interface description (commands in section 1.4, the measurement example
// of 439 ppm, 27.2 °C, 48.8 %RH in section 1.5):
// https://sensirion.com/media/documents/D7CEEF4A/6165372F/Sensirion_CO2_Sensors_SCD30_Interface_Description.pdf
package scd30
