// Package doctor is climated doctor: it checks, one unit at a time, what
// a hub needs (the I²C bus and each sensor, the rain gauge's pin, the MQTT
// broker, the database's disk, the clock, the service, the token file and
// the listen address) and says for each what it found and what to do. One
// failing check never stops the others.
package doctor
