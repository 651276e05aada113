// Package publish publishes the hub's own state through an mqtt.Client,
// for Home Assistant and for other climated hubs.
//
//   - Publisher publishes the get_climate structure, zone by zone
//     (<prefix>/<zone slug>/state, retained), with Home Assistant
//     discovery (discovery.go) when asked.
//   - AlertPublisher publishes the alert engine's events
//     (<prefix>/alerts/<rule slug>/<zone slug>/event), a retained ON/OFF
//     state per rule and zone and its Home Assistant problem binary_sensor
//     on the zone's device.
//
// The publishers on one client share the zones' slugs (slugs.go), so that
// a zone's state and alert topics have one, and the watch on Home
// Assistant's birth message (birth.go): shared.go keeps both per client.
// Start reading at NewPublisher (publish.go). A state carries the day's
// amounts (amounts.go) so that another hub records the rain it missed.
package publish
