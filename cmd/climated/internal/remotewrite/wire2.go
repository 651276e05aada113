package remotewrite

import (
	"errors"
	"net/http"

	"github.com/golang/snappy"
	"google.golang.org/protobuf/encoding/protowire"
)

// The messages of remote write 2.0 (io.prometheus.write.v2, types.proto
// of prometheus/prometheus), the fields this sender uses:
//
//	message Request    { repeated string symbols = 4; repeated TimeSeries timeseries = 5; }
//	message TimeSeries { repeated uint32 labels_refs = 1; repeated Sample samples = 2; Metadata metadata = 5; }
//	message Sample     { double value = 1; int64 timestamp = 2; } // milliseconds
//	message Metadata   { MetricType type = 1; }                  // COUNTER 1, GAUGE 2
//
// Every string is written once, in symbols (whose first is ""), and a
// series' labels are pairs of indexes into it, name then value, in the
// labels' order: the names and values the series of a request share
// (__name__, job, instance, zone, source) are not repeated.

// The content type and version of a 2.0 request, and the answer's
// header of the samples the receiver wrote, which a 1.0 receiver does
// not give.
const (
	contentTypeV2  = "application/x-protobuf;proto=io.prometheus.write.v2.Request"
	versionV2      = "2.0.0"
	samplesWritten = "X-Prometheus-Remote-Write-Samples-Written"
)

// Metadata's metric types.
const (
	metricCounter = 1
	metricGauge   = 2
)

// symbols is a request's table of strings.
type symbols struct {
	refs map[string]uint32
	list []string
}

func (s *symbols) ref(str string) uint32 {
	if r, ok := s.refs[str]; ok {
		return r
	}
	r := uint32(len(s.list))
	s.refs[str] = r
	s.list = append(s.list, str)
	return r
}

// encodeV2 is the snappy-compressed 2.0 Request of ss, and its protobuf
// bytes.
func encodeV2(ss []series) (body, raw []byte) {
	syms := symbols{refs: map[string]uint32{"": 0}, list: []string{""}}
	var tss, inner, refs []byte
	for _, s := range ss {
		refs = refs[:0]
		for _, l := range s.labels {
			refs = protowire.AppendVarint(refs, uint64(syms.ref(l.name)))
			refs = protowire.AppendVarint(refs, uint64(syms.ref(l.value)))
		}
		inner = appendSeriesV2(inner[:0], refs, s)
		tss = protowire.AppendTag(tss, 5, protowire.BytesType)
		tss = protowire.AppendBytes(tss, inner)
	}
	for _, str := range syms.list {
		raw = protowire.AppendTag(raw, 4, protowire.BytesType)
		raw = protowire.AppendString(raw, str)
	}
	raw = append(raw, tss...)
	return snappy.Encode(nil, raw), raw
}

// appendSeriesV2 is a TimeSeries of s, its labels the packed refs.
func appendSeriesV2(b, refs []byte, s series) []byte {
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendBytes(b, refs)
	b = appendSamples(b, s.samples)
	typ := uint64(metricGauge)
	if s.counter {
		typ = metricCounter
	}
	b = protowire.AppendTag(b, 5, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(protowire.SizeTag(1)+protowire.SizeVarint(typ)))
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	return protowire.AppendVarint(b, typ)
}

// encode is b's request in the protocol sent.
func (s *Sender) encode(b batch) []byte {
	if s.proto == Protocol2 {
		body, _ := encodeV2(b.series)
		return body
	}
	body, _ := encode(b.series, nil)
	return body
}

// fallBack sends 1.0 from now on, the store having answered a 2.0
// request as a 1.0 receiver (why): the batch goes again, in 1.0, and the
// cursor has not moved. Logged once: it happens once a run.
func (s *Sender) fallBack(why error) {
	s.proto = Protocol1
	s.log.Warn("remote write: the store took a 2.0 request as remote write 1.0 (it would have lost the samples): the hub sends it 1.0 from now on, the same samples again; set protocol: 1.0 for this store",
		"err", why)
	s.mu.Lock()
	s.st.Protocol = Protocol1
	s.mu.Unlock()
}

// takesV2Only tells whether why, a 1.0 request's refusal, is the 415 of
// a store that takes 2.0 only, not yet tried in 2.0 as such; if so the
// sender sends it 2.0 from now on, with no fallback to 1.0 again (its
// 2xx are taken as written), and the batch goes again in 2.0: a 415
// gives no samples up while the other version is untried. A store set
// to 2.0 gets here after an answer of its that did not say it wrote
// every sample had the sender fall back. Logged once: it happens once a
// run.
func (s *Sender) takesV2Only(why error) bool {
	var se *StatusError
	if s.proto != Protocol1 || s.client.v2Only || !errors.As(why, &se) || se.Code != http.StatusUnsupportedMediaType {
		return false
	}
	s.proto, s.client.v2Only = Protocol2, true
	msg := "remote write: the store answered 415 to remote write 1.0: it takes 2.0 only; the hub sends it 2.0 from now on, the same samples again, and takes its 2xx as written"
	if s.cfg.Protocol == Protocol2 {
		msg += " though its answers lack the count of samples written (" + samplesWritten + ", or a count below the samples sent: a proxy in front of it may drop or change the header); it does not fall back to 1.0 again"
	} else {
		msg += "; set protocol: 2.0 for this store"
	}
	s.log.Warn(msg, "err", why)
	s.mu.Lock()
	s.st.Protocol = Protocol2
	s.mu.Unlock()
	return true
}
