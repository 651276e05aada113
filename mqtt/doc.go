// Package mqtt is climated's one connection to an MQTT broker, which the
// ingest of devices' readings (package mqtt/ingest) and the publishers of
// the hub's zones and alerts (package mqtt/publish) share. The payload
// formats are in package mqtt/decode.
//
// Client keeps the connection (paho.mqtt.golang): tcp://, ssl://, tls://,
// mqtts://, ws:// and wss:// brokers, TLS with a CA and a client
// certificate, a password from the file or an environment variable (never
// logged), exponential back-off with jitter from 1 s to reconnect_max
// while the broker is down (at start-up or later), a persistent session
// under a stable client id with every filter subscribed again at every
// connect, and the retained availability topic <prefix>/status: "online"
// while connected (said again at once should another client publish
// anything else there), "offline" as the last will and at shutdown.
// Health says since when and why the broker is unreachable.
//
// Start reading at NewClient (client.go); a message arrives at
// Client.dispatch (subscriptions.go), which hands it to the handler of its
// filter. The session file (sessionfile.go) keeps the client id and the
// Journal (journal.go), the record of delivered QoS 1 messages that lets
// the ingest recognise a redelivery; limitconn.go drops oversized
// payloads as they arrive. Probe checks a configuration against a broker
// (climated doctor). What a user sets is in docs/mqtt.md.
package mqtt
