// Package remotewrite pushes the hub's readings to a Prometheus-compatible
// store (Prometheus' remote-write receiver, VictoriaMetrics, Grafana
// Mimir, Thanos) by the remote-write 1.0 protocol: snappy-compressed
// protobuf WriteRequests, named as /metrics names the readings, at the
// readings' own times; or, for a store set to protocol 2.0, by 2.0
// (wire2.go), falling back to 1.0 when the store answers as one that
// takes only 1.0.
//
// It reads the readings from the history, not as they arrive: a cursor in
// the history's database says what the store has taken, so that after an
// outage (of the store, the network or the hub) it sends what it missed,
// in order, one batch in memory at a time and at a bounded rate, and
// nothing twice. The protocols are at
// https://prometheus.io/docs/specs/prw/remote_write_spec/ and
// https://prometheus.io/docs/specs/prw/remote_write_spec_2_0/.
package remotewrite
