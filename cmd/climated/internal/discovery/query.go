package discovery

import (
	"fmt"
	"net"

	"github.com/miekg/dns"
)

// query is the query in pkt and the questions of it looked at, nil when
// pkt is no query (a response, another opcode, not DNS at all) or names
// none of the hub's records.
func (h Hub) query(pkt []byte) (*dns.Msg, []dns.Question) {
	var q dns.Msg
	if err := q.Unpack(pkt); err != nil || q.Response || q.Opcode != dns.OpcodeQuery || len(q.Question) == 0 {
		return nil, nil
	}
	qs := q.Question[:min(len(q.Question), maxQuestions)]
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
func (h Hub) reply(q *dns.Msg, qs []dns.Question, legacy bool, addrs []net.IP) (*dns.Msg, bool) {
	resp := &dns.Msg{MsgHdr: dns.MsgHdr{Response: true, Authoritative: true}}
	if legacy {
		resp.Id, resp.Question = q.Id, qs
	}
	unicast := legacy
	for _, qq := range qs {
		unicast = unicast || qq.Qclass&(1<<15) != 0 // the QU bit
		qq.Qclass &^= 1 << 15
		ans, extra := h.answer(qq, addrs)
		resp.Answer = append(resp.Answer, ans...)
		resp.Extra = append(resp.Extra, extra...)
	}
	if len(resp.Answer) == 0 {
		return nil, false
	}
	resp.Answer, resp.Extra = dedupe(resp.Answer), dedupe(resp.Extra)
	if legacy {
		capTTL(resp, ttlLegacy)
	}
	return resp, unicast
}

// pack is m on the wire in at most maxAnswer bytes, its extra records
// left out when they would not fit.
func pack(m *dns.Msg) ([]byte, error) {
	b, err := m.Pack()
	if err == nil && len(b) > maxAnswer {
		m.Extra = nil
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

func capTTL(m *dns.Msg, ttl uint32) {
	for _, s := range [][]dns.RR{m.Answer, m.Extra} {
		for _, rr := range s {
			rr.Header().Ttl = min(rr.Header().Ttl, ttl)
		}
	}
}
