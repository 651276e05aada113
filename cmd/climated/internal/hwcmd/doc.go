// Package hwcmd is climated's commands on the I²C bus: scan, which
// probes the bus and prints configuration lines for the chips that
// answer, and read, one reading of every sensor printed as JSON.
package hwcmd
