// Package sps30 controls a Sensirion SPS30 particulate matter sensor over
// I²C, with the CRC of every word checked: the mass concentrations PM1,
// PM2.5, PM4 and PM10 in µg/m³ (the number concentrations and the typical
// particle size it also reports are not used).
//
// The measurement is started in the big-endian IEEE 754 float output
// format (0x0300), not the unsigned 16-bit one (0x0500): every firmware
// has it (the integer format needs firmware 2.0 or later), it keeps the
// tenths of µg/m³ that the integer format rounds away in the clean air of
// a home, and a chip left measuring in the integer format by another
// program is caught rather than misread: its 30-byte answer leaves the
// rest of the 60 bytes read as 0xFF, whose CRC does not match.
//
// The chip makes a measurement every second; Sense reads the latest, or
// returns ErrNotReady when there is no new one. The first 30 s after start
// are not a stable measurement (datasheet table 1, typical start-up time):
// Sense returns ErrWarmingUp instead of them.
//
// The SEN5x answers at the same address, 0x69: the product type, always
// "00080000" on an SPS30, tells them apart.
//
// Datasheet: "Datasheet SPS30", version 2.0, June 2023 (I²C commands in
// table 8, section 6.3; output formats in 4.3; fan auto cleaning in 4.2;
// device status register in 4.4; product type in 6.3.9):
// https://sensirion.com/media/documents/8600FF88/64A3B8D6/Sensirion_PM_Sensors_Datasheet_SPS30.pdf
// Sensirion's drivers: github.com/Sensirion/embedded-sps, sps30-i2c/sps30.c,
// and github.com/Sensirion/python-i2c-sps30, sensirion_i2c_sps30/commands.py.
package sps30
