// Package remotewrite pushes the hub's readings to a Prometheus-compatible
// store (Prometheus' remote-write receiver, VictoriaMetrics, Grafana
// Mimir, Thanos) by the remote-write 1.0 protocol: snappy-compressed
// protobuf WriteRequests, named as /metrics names the readings, at the
// readings' own times.
//
// It reads the readings from the history, not as they arrive: a cursor in
// the history's database says what the store has taken, so that after an
// outage (of the store, the network or the hub) it sends what it missed,
// in order, one batch in memory at a time and at a bounded rate, and
// nothing twice. The protocol is at
// https://prometheus.io/docs/specs/prw/remote_write_spec/.
package remotewrite
