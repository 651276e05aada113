// Package sht3x controls a Sensirion SHT3x (SHT30, SHT31, SHT35) or SHT85
// temperature and humidity sensor over I²C, in single-shot mode without
// clock stretching, with the CRC of every word checked.
//
// Datasheets:
// https://sensirion.com/media/documents/213E6A3B/63A5A569/Datasheet_SHT3x_DIS.pdf
// https://sensirion.com/media/documents/4B40CEF3/640B2346/Sensirion_Humidity_Sensors_SHT85_Datasheet.pdf
package sht3x
