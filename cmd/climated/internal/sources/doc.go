// Package sources turns the configuration into what feeds the hub (the
// I²C sensors, or those a scan of the bus finds, the rain gauge, MQTT
// devices and the demo house), runs them as one set that a reload
// replaces, and fills in the demo house's missed past before serving.
package sources
