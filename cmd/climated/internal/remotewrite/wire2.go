package remotewrite

import (
	"errors"
	"fmt"
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
	s.setProto(Protocol1)
	s.log.Warn("remote write: the store took a 2.0 request as remote write 1.0 (it would have lost the samples): the hub sends it 1.0 from now on, the same samples again; set protocol: 1.0 for this store",
		"err", why)
}

// versionTries is what one batch's requests learnt of the versions the
// store takes: the 415s each version got, and whether a 2.0 request was
// answered 2xx without the count of samples written.
type versionTries struct {
	refused map[string]int
	odd     bool
}

// negotiate reads r, the answer to a request of the batch in s.proto, for
// what it says of the versions the store takes, and sets s.proto (and r)
// for what follows; it reports whether the batch goes again at once.
// A 415 gives up no samples while the other version is untried: the
// batch is tried in it. A store refusing both is given up on only once
// the configured version has refused the batch twice (a proxy may answer
// one request 415). A 2.0 request answered 2xx without the count is a
// 1.0 receiver's answer (it read the body as an empty request): a store
// set to 2.0 falls back to 1.0 (fallBack), unless it refused 1.0 too, when
// it takes 2.0 only behind something that drops the count (takeV2Only); a
// store set to 1.0, tried in 2.0 after a 415, goes back to 1.0 after a
// back-off.
func (s *Sender) negotiate(t *versionTries, r *result) (resend bool) {
	var se *StatusError
	is415 := errors.As(r.err, &se) && se.Code == http.StatusUnsupportedMediaType
	if !is415 && r.outcome != Fallback {
		if r.outcome == Sent && s.proto != s.cfg.Protocol && !s.client.v2Only && s.proto == Protocol2 {
			s.tookOther(Protocol2)
		}
		return false
	}
	if t.refused == nil {
		t.refused = map[string]int{}
	}
	other := Protocol1
	if s.proto == Protocol1 {
		other = Protocol2
	}
	if !is415 { // a 2.0 request answered 2xx without the count
		t.odd = true
		switch {
		case s.cfg.Protocol == Protocol2 && t.refused[Protocol1] > 0:
			s.takeV2Only(r.err)
			return true
		case s.cfg.Protocol == Protocol2:
			s.fallBack(r.err)
			return true
		}
		s.setProto(Protocol1) // set to 1.0: its 415 was not its last word
		*r = result{outcome: Retry, err: fmt.Errorf("the store answered 415 to remote write 1.0, and a 2.0 request as a 1.0 receiver does: sent again in 1.0 (%w)", r.err)}
		return false
	}
	t.refused[s.proto]++
	switch {
	case t.refused[other] == 0 && s.proto == Protocol2 && s.cfg.Protocol == Protocol2 && !t.odd:
		s.fallBack(r.err) // a store of 1.0 that checks the content type
		return true
	case t.refused[other] == 0 && !(other == Protocol1 && t.odd):
		s.setProto(other)
		return true
	case t.refused[s.cfg.Protocol] >= 2:
		s.setProto(s.cfg.Protocol)
		*r = result{outcome: Dropped, err: fmt.Errorf("the store answered 415 to remote write 1.0 and 2.0 alike: %w", r.err)}
		return false
	}
	s.setProto(s.cfg.Protocol)
	*r = result{outcome: Retry, err: fmt.Errorf("the store answered 415 to both versions; %s again after a back-off: %w", s.cfg.Protocol, r.err)}
	return false
}

// setProto sends p from now on, as /healthz shows.
func (s *Sender) setProto(p string) {
	s.proto = p
	s.mu.Lock()
	s.st.Protocol = p
	s.mu.Unlock()
}

// tookOther notes, once, that a store set to the other version took p
// after it answered 415: it is sent p from now on.
func (s *Sender) tookOther(p string) {
	if s.said415 {
		return
	}
	s.said415 = true
	s.log.Warn("remote write: the store answered 415 to remote write "+s.cfg.Protocol+" and took "+p+": the hub sends it "+p+" from now on; set protocol: "+p+" for this store", "url", s.cfg.URL)
}

// takeV2Only sends a store set to 2.0 2.0 only, its 2xx taken as written:
// it answered a 2.0 request 2xx without the count of samples written
// (why) and refused 1.0 with 415, as a 2.0-only store behind a proxy that
// drops the header does. Logged once: it happens once a run.
func (s *Sender) takeV2Only(why error) {
	s.client.v2Only = true
	s.setProto(Protocol2)
	s.log.Warn("remote write: the store takes remote write 2.0 only (it answered 415 to 1.0) but its answers lack the count of samples written ("+samplesWritten+", or a count below the samples sent: a proxy in front of it may drop or change the header); the hub sends it 2.0 and takes its 2xx as written", "err", why)
}
