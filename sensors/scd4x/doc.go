// Package scd4x reads a Sensirion SCD40 or SCD41 NDIR CO₂, temperature and
// humidity sensor over I²C in periodic measurement mode (one measurement
// every 5 s), with the CRC of every word checked.
//
// Every command goes through sensirion.Read: the command is written in a
// transaction of its own and its answer read in another after the
// command's execution time, as the datasheet requires (section 3.3: "it is
// required to wait the command execution time before issuing the read
// header"). periph.io's scd4x driver reads in one combined write-then-read
// transaction with no wait, which the chip NACKs, and its Sense sleeps in
// a loop holding its lock; it is not used.
//
// Datasheet (commands and execution times in table 9, section 3.4;
// read_measurement in 3.5.2, get_data_ready_status in 3.8.2):
// https://sensirion.com/media/documents/48C4B7FB/64C134E7/Sensirion_SCD4x_Datasheet.pdf
package scd4x
