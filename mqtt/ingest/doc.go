// Package ingest takes in the zone readings of the devices a house
// already has (zigbee2mqtt, Tasmota, ESPHome, Shelly,
// Theengs/OpenMQTTGateway, rtl_433, anything else through a generic
// mapping, and other climated hubs) from the subscriptions of an
// mqtt.Client, and records them into a sensors.Sink.
//
// Ingest is a sensors.Source. Its handlers run on paho's goroutine and
// only queue the message (bounded; when full the message is dropped and
// counted); Run decodes, converts, validates and records in batches, and
// acknowledges QoS 1 messages once their readings are committed.
//
// Start reading at New (ingest.go): a message goes from
// Ingest.handler to the queue, is taken by Ingest.drain, decoded by
// package mqtt/decode (process.go), placed in its zone (place.go) and
// recorded, its acknowledgement held until the history commits it
// (durable.go, with the client's mqtt.Journal). Mappings (mapping.go)
// say which topics feed which zones. What the package does with zones,
// time, units, bad input and other hubs is in docs/development.md ("The
// mqtt packages").
package ingest
