// Package mqtttest holds what the tests of package mqtt, ingest and
// publish share and that needs no part of them: brokers (mochi in
// process; mosquitto is testutil's), captures of what a broker delivers,
// a TCP proxy that cuts connections or drops packets, and the logging and
// running of the parts under test. It imports none of the mqtt packages,
// so that the client's own tests can use it.
package mqtttest
