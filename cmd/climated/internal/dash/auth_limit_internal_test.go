package dash

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestLoginAddrsBounded: however many addresses try, the login remembers
// at most MaxLoginAddrs, and forgets idle ones before one that is out of
// tries.
func TestLoginAddrsBounded(t *testing.T) {
	var g guesses
	t0 := time.Unix(1_800_000_000, 0)
	for i := range MaxLoginAddrs - 1 {
		g.useTry(fmt.Sprintf("10.0.%d.%d", i/256, i%256), t0)
	}
	later := t0.Add(2 * time.Minute) // the first ones are idle by now
	for range MaxWrongLogins {
		if no := g.useTry("192.168.1.66", later); no != nil {
			t.Fatalf("a try within the limit refused: %s", no.msg)
		}
	}
	at := later
	for i := range 3 * MaxLoginAddrs {
		at = later.Add(time.Duration(i) * time.Millisecond)
		g.useTry("192.168.1.66", at) // the guesser keeps trying
		g.useTry(fmt.Sprintf("fd00::%x", i), at)
		if n := len(g.addrs); n > MaxLoginAddrs {
			t.Fatalf("%d addresses remembered, want at most %d", n, MaxLoginAddrs)
		}
	}
	if no := g.useTry("192.168.1.66", at); no == nil || !strings.Contains(no.msg, "from 192.168.1.66") {
		t.Errorf("the address out of tries: %+v; want it refused, still remembered", no)
	}
}
