// Package sht4x controls a Sensirion SHT4x (SHT40, SHT41, SHT43, SHT45)
// temperature and humidity sensor over I²C, with the CRC of every word
// checked.
//
// Datasheet:
// https://sensirion.com/media/documents/33FD6951/67EB9032/HT_DS_Datasheet_SHT4x_5.pdf
package sht4x
