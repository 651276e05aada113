package discovery

import (
	"fmt"
	"net"

	"golang.org/x/net/dns/dnsmessage"
)

// query is the query in pkt and the questions of it looked at, nil when
// pkt is no query (a response, another opcode, not DNS at all) or names
// none of the hub's records.
func (h Hub) query(pkt []byte) (*dnsmessage.Message, []dnsmessage.Question) {
	var q dnsmessage.Message
	if err := q.Unpack(pkt); err != nil || q.Response || q.OpCode != 0 || len(q.Questions) == 0 {
		return nil, nil
	}
	qs := q.Questions[:min(len(q.Questions), maxQuestions)]
	if !h.knowsAny(qs) {
		return nil, nil
	}
	return &q, qs
}

// reply is the response to q (its questions qs), nil when the hub has
// nothing to say, and whether it goes back to the sender alone: for a
// legacy query (RFC 6762 §6.7: from a port other than 5353, which gets
// its id, its questions and TTLs of at most ttlLegacy back) or a question
// with the QU bit. addrs are the host's addresses for its A records.
func (h Hub) reply(q *dnsmessage.Message, qs []dnsmessage.Question, legacy bool, addrs []net.IP) (*dnsmessage.Message, bool) {
	resp := &dnsmessage.Message{Header: dnsmessage.Header{Response: true, Authoritative: true}}
	if legacy {
		resp.ID, resp.Questions = q.ID, qs
	}
	unicast := legacy
	for _, qq := range qs {
		unicast = unicast || qq.Class&cacheFlush != 0 // the QU bit
		qq.Class &^= cacheFlush
		ans, extra := h.answer(qq, addrs)
		resp.Answers = append(resp.Answers, ans...)
		resp.Additionals = append(resp.Additionals, extra...)
	}
	if len(resp.Answers) == 0 {
		return nil, false
	}
	resp.Answers, resp.Additionals = dedupe(resp.Answers), dedupe(resp.Additionals)
	if legacy {
		legacyRecords(resp)
	}
	return resp, unicast
}

// legacyRecords makes resp's records fit an ordinary resolver (RFC 6762
// §6.7): TTLs of at most ttlLegacy, and no cache-flush bit, which such a
// resolver would read as a class of its own.
func legacyRecords(resp *dnsmessage.Message) {
	capTTL(resp, ttlLegacy)
	for _, s := range [][]dnsmessage.Resource{resp.Answers, resp.Additionals} {
		for i := range s {
			s[i].Header.Class &^= cacheFlush
		}
	}
}

// pack is m on the wire in at most maxAnswer bytes, its extra records
// left out when they would not fit.
func pack(m *dnsmessage.Message) ([]byte, error) {
	b, err := m.Pack()
	if err == nil && len(b) > maxAnswer {
		m.Additionals = nil
		b, err = m.Pack()
	}
	if err == nil && len(b) > maxAnswer {
		err = fmt.Errorf("%d bytes, past %d", len(b), maxAnswer)
	}
	if err != nil {
		return nil, err
	}
	return b, nil
}

func capTTL(m *dnsmessage.Message, ttl uint32) {
	for _, s := range [][]dnsmessage.Resource{m.Answers, m.Additionals} {
		for i := range s {
			s[i].Header.TTL = min(s[i].Header.TTL, ttl)
		}
	}
}

// dedupe drops records that are there twice (the host's A records after
// each instance).
func dedupe(rrs []dnsmessage.Resource) []dnsmessage.Resource {
	seen := map[string]bool{}
	out := rrs[:0]
	for _, rr := range rrs {
		if k := rr.GoString(); !seen[k] {
			seen[k] = true
			out = append(out, rr)
		}
	}
	return out
}
