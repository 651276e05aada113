package remotewrite

import (
	"math"
	"slices"

	"github.com/golang/snappy"
	"google.golang.org/protobuf/encoding/protowire"
)

// The messages of remote write 1.0 (prometheus/prompb, types.proto), the
// fields this sender uses:
//
//	message WriteRequest { repeated TimeSeries timeseries = 1; }
//	message TimeSeries   { repeated Label labels = 1; repeated Sample samples = 2; }
//	message Label        { string name = 1; string value = 2; }
//	message Sample       { double value = 1; int64 timestamp = 2; } // milliseconds
//
// Written by hand with protowire: five fields do not need the generated
// code of prometheus/prometheus and its dependencies.

// label is one label of a series.
type label struct{ name, value string }

// sample is one value at a time in milliseconds.
type sample struct {
	value float64
	ms    int64
}

// series is one time series of a request: its labels sorted by name, as
// the protocol wants them, and its samples in time order.
type series struct {
	labels  []label
	samples []sample
	counter bool // a counter (an amount's total), not a gauge: 2.0 says so
}

// sortLabels puts ls in the protocol's order, by name.
func sortLabels(ls []label) {
	slices.SortFunc(ls, func(a, b label) int {
		switch {
		case a.name < b.name:
			return -1
		case a.name > b.name:
			return 1
		}
		return 0
	})
}

// encode is the snappy-compressed WriteRequest of ss; buf is reused for
// the protobuf bytes.
func encode(ss []series, buf []byte) (body, raw []byte) {
	raw = buf[:0]
	var inner []byte
	for _, s := range ss {
		inner = appendSeries(inner[:0], s)
		raw = protowire.AppendTag(raw, 1, protowire.BytesType)
		raw = protowire.AppendBytes(raw, inner)
	}
	return snappy.Encode(nil, raw), raw
}

func appendSeries(b []byte, s series) []byte {
	for _, l := range s.labels {
		n := protowire.SizeTag(1) + protowire.SizeBytes(len(l.name)) + protowire.SizeTag(2) + protowire.SizeBytes(len(l.value))
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(n))
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendString(b, l.name)
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendString(b, l.value)
	}
	return appendSamples(b, s.samples)
}

// appendSamples are the Sample fields (2) of a TimeSeries, as both
// versions have them.
func appendSamples(b []byte, ss []sample) []byte {
	for _, x := range ss {
		n := protowire.SizeTag(1) + protowire.SizeFixed64() + protowire.SizeTag(2) + protowire.SizeVarint(uint64(x.ms))
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(n))
		b = protowire.AppendTag(b, 1, protowire.Fixed64Type)
		b = protowire.AppendFixed64(b, math.Float64bits(x.value))
		b = protowire.AppendTag(b, 2, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(x.ms))
	}
	return b
}
