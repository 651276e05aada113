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
// # Zones
//
// A Mapping subscribes a topic filter with a format. The first mapping
// (in configuration order) whose filter matches a topic takes the
// message. The zone of a device is, in this order: its entry in devices;
// the mapping's zone; with auto_zone (implied for the climated format
// when zone and devices are empty), a zone named after the device
// (cleaned of control characters, at most 64 characters). A device makes
// a zone of its own only once it sends a climate value (not only battery
// or signal: a passing phone's BLE beacon makes none), and at most
// max_auto_zones such zones are made. Messages of devices without a zone
// are dropped and counted (NoZone), with a warning that gives the device's
// key as devices: accepts it; a device placed by the mapping's zone or
// auto_zone is logged once with its key. A further probe of a device
// (<device>/<probe>: Tasmota's ds18x20/DS18B20-2, rtl_433's
// Acurite-00275rm/2/3253/1) goes to its entry in devices, or with
// auto_zone to a zone of its own; else it is dropped, said once. Two
// sources giving one zone the same measurement are warned about once.
// A device that reports only the station's pressure gets the sea-level
// Pressure derived from IngestOptions.Altitude, by the hub's own formula
// (sensors.SeaLevelPressure).
//
// # Time, retained messages and rain
//
//   - Readings are stamped with the time the message arrived, except in
//     the climated format, which carries the zone's When.
//   - A retained message is taken as the device's state at start-up (ESPHome
//     and Shelly retain their states, one value per topic). Once a topic's
//     values have been taken in this run its retained messages are
//     skipped: the broker repeats them at every re-subscription.
//   - A cumulative rain counter (rtl_433 rain_mm/rain_in, or a field with
//     counter: true) is kept per device. The first value (and a retained
//     one) sets the base and records nothing; an increase is recorded as
//     Rain, the mm fallen since the previous message (an unchanged counter
//     records 0 mm); a decrease means the counter restarted from zero (new
//     batteries, a wrap), so the new value is the rain since the restart.
//   - A Rain amount (not a counter) in a retained message is never
//     recorded: it was counted when it was new.
//
// # Units, battery and radio
//
// Values are converted to the catalogue's units (°F and K to °C; mmHg,
// inHg, Pa and kPa to hPa; inches of rain to mm; volts to mV). Battery and
// radio quality map onto battery_vp, battery_percent and rf_status as
// package decode documents: battery_vp in mV; battery_percent as reported
// (rtl_433 battery_ok 0…1 → 0…100 %), never estimated from a voltage;
// rf_status on the Netatmo scale (lower is better, 90 low … 60 full) as the
// magnitude of a dBm level clamped to 60…90, as 90 − 30·lqi/255 for a
// zigbee link quality, and as 90 − 0.3·q for a quality q in percent.
//
// # Bad input
//
// Malformed JSON, wrong types, NaN and infinities, physically impossible
// values (outside the sensors catalogue's ranges), oversized payloads
// (max_payload): the value (or message) is dropped and counted in Stats,
// and a warning names the topic, the device, an excerpt of the payload and
// what was wrong (the field), at most one per kind and device (per topic
// when the payload names none) per log_interval and 20 per interval in
// all. A null is no value, not bad input. Topics a format does not use (zigbee2mqtt/bridge/…,
// Tasmota INFO, ESPHome binary sensors) are counted as Ignored and logged
// only at debug level. The valid values of a
// partly valid payload are kept. The device's Status (source
// mqtt/<format>/<device>) carries the latest problem, or "device reports
// offline" after its availability topic said so.
//
// # Publishing
//
// The publisher reads the get_climate structure every interval and
// publishes what changed, retained. It publishes at QoS 0 and publishes
// everything again after every reconnect, which covers what QoS 1 would
// (see Client.Publish for why not QoS 1):
//
//   - <prefix>/<zone slug>/state: the zone's get_climate object plus
//     "zone", its name. The slug is the name in lower case with runs of
//     other characters as "_"; a second zone with the same slug gets the
//     slug and an FNV-32a hash of its name.
//   - with home_assistant: <discovery_prefix>/sensor/<prefix slug>/<zone
//     slug>_<key>/config for every key: a device per zone, device_class,
//     unit_of_measurement, state_class, entity_category diagnostic for
//     battery and signal, the availability topic. Announced once per key,
//     again when Home Assistant publishes "online" on
//     <discovery_prefix>/status and after every reconnect; a zone that
//     leaves the structure (or is no longer selected) is removed with
//     empty retained messages on its discovery and state topics.
//
// Zones picks the zones to publish; Skip leaves out zones: give it
// Ingest.PublishSkip(DeviceZones), which leaves out every zone taken in
// over MQTT, or with device_zones only those of other hubs, so that hubs
// never echo each other while Home Assistant can get the values only this
// hub derives for a device's zone (extremes, trends, rain sums). Entity
// names never start with the zone's name, which Home Assistant would
// strip with a warning.
//
// # Hub of hubs
//
// A hub publishes with a prefix of its own (climated/upstairs); another
// subscribes to climated/upstairs/# with format climated and shows those
// zones as its own. When that hub's climated/upstairs/status says offline
// (its clean stop, or its last will) its zones carry the error at once. Each state is recorded at its When; a state no
// newer than the last one taken from that zone is skipped. Derived keys
// (extremes, trends, rain sums) are derived again from the readings. The
// structure has no time per key, so Rain is recorded only from a live
// (not retained) state whose Rain, sum_rain_1 or sum_rain_24 differs from
// the zone's previous state: another measurement renewing the zone does
// not count its rain twice. (Two equal amounts where an equal amount
// leaves both sums in the same second look alike; the second is lost.)
// Any broker joins hubs: one mosquitto for the house, or a mosquitto
// bridge per building to a central broker; the protocol is plain MQTT.
//
// # Restarts
//
// With a stable client id (Options.ClientID, or the one made once and kept
// in Options.SessionFile) the session is persistent: the broker keeps the
// subscriptions (QoS 1 by default) and queues what arrives while the hub
// is away, up to its own limit (mosquitto: max_queued_messages, 1000 by
// default). Without one (library use) the id is random and the session
// clean.
//
// paho's automatic acknowledgement is off. A QoS 1 message is acknowledged
// only once its readings are committed (the sink's Flush, history.Store's):
// the readings of waiting messages are held and recorded together, at most
// ackDelay (200 ms) after the first of them or once ackBatch (10) wait, so
// a burst costs a few commits and the broker's in-flight window (mosquitto:
// max_inflight_messages, 20) never waits for the history's 1 s tick.
// Acknowledgements go out in the order the messages came (MQTT 3.1.1
// §4.6), except for messages dropped on arrival (oversized, queue full),
// acknowledged at once. At shutdown the ingest commits and acknowledges
// what waits before the client disconnects; messages arriving after are
// left for the broker to deliver at the next start.
// While the history's disk is full (its Flush says sensors.ErrDiskFull),
// messages are acknowledged once the history holds their readings in
// memory: waiting for a commit that cannot come would stop the broker
// sending anything newer, and it drops what its queue cannot hold. The
// history writes them within a second of space being freed; a hub that
// stops before loses them.
//
// The broker delivers again, with the DUP flag and the same packet id,
// every message whose acknowledgement it did not get. The session file
// journals each batch (packet id, topic and payload hashed, with the
// arrival time) before it goes to the history, and its commit after, so a
// redelivered message is recognised: one already committed is processed
// for the device's state but its readings are dropped (counted as
// Redelivered). For one whose batch the hub's death left pending in the
// journal, the history is asked (IngestOptions.Marked): each batch is
// recorded with a mark (sensors.WithMark) that the history commits in the
// same transaction as the batch's readings, so the mark is there exactly
// when they are. A batch found there is not recorded again; one not found
// is recorded at its first arrival's time. Without a history to ask it is
// recorded again at that time, which the history's one value per series
// and second absorbs for gauges, but a rain amount would count twice. The
// journal keeps the last 2048 to 4096 messages, far more than an
// in-flight window. Readings that waited in the
// broker's queue are stamped with their arrival at the hub, except where
// the payload carries its time (the climated format).
package mqtt
