// Package mqtt connects climated to an MQTT broker: it takes in the zone
// readings of the devices a house already has (zigbee2mqtt, Tasmota,
// ESPHome, Shelly, Theengs/OpenMQTTGateway, rtl_433, anything else through
// a generic mapping, and other climated hubs), and publishes the hub's own
// zones for Home Assistant and for other hubs. The payload formats are in
// package decode.
//
// Three parts share one connection:
//
//   - Client keeps the connection (paho.mqtt.golang): tcp://, ssl://,
//     tls://, mqtts://, ws:// and wss:// brokers, TLS with a CA and a
//     client certificate, a password from the file or an environment
//     variable (never logged), exponential back-off with jitter from 1 s to
//     reconnect_max while the broker is down (at start-up or later), a
//     persistent session under a stable client id (see Restarts) with every
//     filter subscribed again at every connect, and the retained
//     availability topic <prefix>/status: "online" while connected (said
//     again at once should another client publish anything else there),
//     "offline" as the last will and at shutdown. Health says since when
//     and why the broker is unreachable.
//   - Ingest is a sensors.Source. Its handlers run on paho's goroutine and
//     only queue the message (bounded; when full the message is dropped
//     and counted); Run decodes, converts, validates and records in
//     batches, and acknowledges QoS 1 messages once their readings are
//     committed.
//   - Publisher publishes the get_climate structure, zone by zone.
//   - AlertPublisher publishes the alert engine's events
//     (<prefix>/alerts/<rule slug>/<zone slug>/event), a retained ON/OFF
//     state per rule and zone and its Home Assistant problem binary_sensor
//     on the zone's device. The zone slug is the one of the zone's state
//     topic: the client allocates it for both publishers.
//
// Start reading at NewClient (client.go) and NewIngest (ingest.go): a
// message goes from Client.dispatch (subscriptions.go) to the ingest's
// queue, is decoded by package decode, placed in its zone (place.go) and
// recorded, its acknowledgement held until the history commits it
// (durable.go; the journal that recognises a redelivery is journal.go).
// What the package does with zones, time, units, bad input, publishing
// and other hubs is in docs/development.md ("The mqtt package"); what a
// user sets, in docs/mqtt.md.
package mqtt
