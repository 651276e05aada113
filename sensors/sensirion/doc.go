// Package sensirion is the I²C word protocol that Sensirion's sensors
// (SHT3x, SHT4x, SCD30, SCD4x, SGP30, SEN5x, SPS30) share: 16-bit words sent most
// significant byte first, each followed by a CRC-8 (polynomial 0x31,
// initialisation 0xFF, no reflection, no final XOR), which this package
// checks on every word it reads.
//
// Datasheet (the CRC is specified in section 4.12; its worked example is
// 0xBEEF → 0x92):
// https://sensirion.com/media/documents/213E6A3B/63A5A569/Datasheet_SHT3x_DIS.pdf
package sensirion
