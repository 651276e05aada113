package perclient

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

// recorder records which holds were ended and why.
type recorder struct {
	l     *Limit
	ended []string
	why   map[string]Eviction
	rel   map[string]func()
}

func newRecorder(perClient, total int) *recorder {
	return &recorder{l: New(perClient, total), why: map[string]Eviction{}, rel: map[string]func(){}}
}

// hold opens hold name of client.
func (h *recorder) hold(client, name string) {
	h.rel[name] = h.l.Hold(client, func(e Eviction) {
		h.ended = append(h.ended, name)
		h.why[name] = e
	})
}

func TestLimit(t *testing.T) {
	type step struct{ client, name string }
	cases := []struct {
		name             string
		perClient, total int
		steps            []step
		release          []string // released after the steps
		wantEnded        []string
		wantWhy          map[string]Eviction
		wantHeld         int
		wantBy           map[string]int
	}{{
		name: "a client past its share loses its own oldest", perClient: 2, total: 10,
		steps:     []step{{"A", "a1"}, {"A", "a2"}, {"B", "b1"}, {"A", "a3"}, {"A", "a4"}},
		wantEnded: []string{"a1", "a2"},
		wantWhy:   map[string]Eviction{"a1": {Client: "A", Nth: 1}, "a2": {Client: "A", Nth: 2}},
		wantHeld:  3, wantBy: map[string]int{"A": 2, "B": 1},
	}, {
		name: "at the ceiling the client holding most loses its oldest", perClient: 3, total: 4,
		steps:     []step{{"A", "a1"}, {"B", "b1"}, {"A", "a2"}, {"A", "a3"}, {"C", "c1"}},
		wantEnded: []string{"a1"},
		wantWhy:   map[string]Eviction{"a1": {Client: "A", Ceiling: true, Nth: 1}},
		wantHeld:  4, wantBy: map[string]int{"A": 2, "B": 1, "C": 1},
	}, {
		name: "of clients holding as many, the one whose oldest is oldest", perClient: 5, total: 2,
		steps:     []step{{"B", "b1"}, {"A", "a1"}, {"C", "c1"}},
		wantEnded: []string{"b1"},
		wantHeld:  2, wantBy: map[string]int{"A": 1, "C": 1},
	}, {
		name: "the new hold is never the one ended", perClient: 1, total: 1,
		steps:     []step{{"A", "a1"}, {"A", "a2"}, {"B", "b1"}},
		wantEnded: []string{"a1", "a2"},
		wantHeld:  1, wantBy: map[string]int{"B": 1},
	}, {
		name: "released holds make room; releasing twice or after an end counts nothing", perClient: 2, total: 3,
		steps:     []step{{"A", "a1"}, {"A", "a2"}, {"A", "a3"}},
		release:   []string{"a1", "a2", "a2"},
		wantEnded: []string{"a1"},
		wantHeld:  1, wantBy: map[string]int{"A": 1},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newRecorder(c.perClient, c.total)
			for _, s := range c.steps {
				h.hold(s.client, s.name)
			}
			for _, name := range c.release {
				h.rel[name]()
			}
			if !slices.Equal(h.ended, c.wantEnded) {
				t.Errorf("ended %v, want %v", h.ended, c.wantEnded)
			}
			for name, want := range c.wantWhy {
				if got := h.why[name]; got != want {
					t.Errorf("%s ended with %+v, want %+v", name, got, want)
				}
			}
			if got := h.l.Held(); got != c.wantHeld {
				t.Errorf("Held() = %d, want %d", got, c.wantHeld)
			}
			for client, want := range c.wantBy {
				if got := h.l.HeldBy(client); got != want {
					t.Errorf("HeldBy(%s) = %d, want %d", client, got, want)
				}
			}
		})
	}
}

// TestEvictionCountStartsAgain: a client that held nothing for a while is
// told of its next eviction as of a first one.
func TestEvictionCountStartsAgain(t *testing.T) {
	h := newRecorder(1, 10)
	h.hold("A", "a1")
	h.hold("A", "a2")
	h.rel["a2"]()
	h.hold("A", "a3")
	h.hold("A", "a4")
	if e := h.why["a3"]; e.Nth != 1 {
		t.Errorf("first eviction after holding none: Nth %d, want 1", e.Nth)
	}
}

func TestClient(t *testing.T) {
	req := func(remote, auth string) *http.Request {
		r, _ := http.NewRequest(http.MethodGet, "http://hub/mcp", nil)
		r.RemoteAddr = remote
		if auth != "" {
			r.Header.Set("Authorization", auth)
		}
		return r
	}
	same := [][2]*http.Request{
		{req("127.0.0.2:4000", ""), req("127.0.0.2:4001", "")},
		{req("[::1]:4000", "Bearer t1"), req("[::1]:5000", "Bearer t1")},
	}
	for _, p := range same {
		if a, b := Client(p[0]), Client(p[1]); a != b {
			t.Errorf("%s and %s: clients %q and %q, want one", p[0].RemoteAddr, p[1].RemoteAddr, a, b)
		}
	}
	apart := [][2]*http.Request{
		{req("127.0.0.2:4000", ""), req("127.0.0.3:4000", "")},
		{req("127.0.0.2:4000", "Bearer t1"), req("127.0.0.2:4000", "Bearer t2")},
		{req("127.0.0.2:4000", "Bearer t1"), req("127.0.0.2:4000", "")},
	}
	for _, p := range apart {
		if a, b := Client(p[0]), Client(p[1]); a == b {
			t.Errorf("%s %q and %s %q: one client %q, want two", p[0].RemoteAddr, p[0].Header.Get("Authorization"), p[1].RemoteAddr, p[1].Header.Get("Authorization"), a)
		}
	}
	if got := Addr(req("192.168.1.20:51000", "Bearer t1")); got != "192.168.1.20" {
		t.Errorf("Addr = %q, want the IP alone", got)
	}
	if got := Client(req("192.168.1.20:51000", "Bearer secret")); len(got) > len("192.168.1.20 token:")+12 {
		t.Errorf("Client = %q: keeps more than a fingerprint of the token", got)
	}
}

// TestSourceOfIPv6IsItsNetwork: an IPv6 source is its /64, directly and
// behind the hub's proxy, so one network rotating its addresses is one
// source; IPv4, IPv4 over an IPv6 socket and loopback stay themselves.
func TestSourceOfIPv6IsItsNetwork(t *testing.T) {
	for _, c := range []struct {
		remote, forwarded, want string
	}{
		{"[2001:db8:1:2::7]:5000", "", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:aaaa:bbbb:cccc:dddd]:5000", "", "2001:db8:1:2::/64"},
		{"[2001:db8:1:3::7]:5000", "", "2001:db8:1:3::/64"},
		{"[::ffff:192.0.2.7]:5000", "", "192.0.2.7"},
		{"192.0.2.7:5000", "", "192.0.2.7"},
		{"[::1]:5000", "", "proxy"}, // the proxy, with no address of its own client
		{"127.0.0.1:5000", "2001:db8:9:9:1:2:3:4", "2001:db8:9:9::/64"},
		{"127.0.0.1:5000", "198.51.100.4", "198.51.100.4"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = c.remote
		if c.forwarded != "" {
			r.Header.Set("X-Forwarded-For", c.forwarded)
		}
		if got := Source(r, true); got != c.want {
			t.Errorf("%s (forwarded %q): %s, want %s", c.remote, c.forwarded, got, c.want)
		}
	}
}
