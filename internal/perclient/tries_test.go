package perclient

import (
	"fmt"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

// TestTriesKeysBounded: however many sources try, at most maxKeys are
// remembered; idle ones are forgotten before one that is out of tries,
// which stays refused.
func TestTriesKeysBounded(t *testing.T) {
	const maxKeys, burst = 1024, 10
	tr := NewTries(rate.Every(time.Minute/burst), burst, rate.Inf, 1, maxKeys)
	t0 := time.Unix(1_800_000_000, 0)
	for i := range maxKeys - 1 {
		tr.Take(fmt.Sprintf("10.0.%d.%d", i/256, i%256), t0)
	}
	later := t0.Add(2 * time.Minute) // the first ones are idle by now
	for range burst {
		if no := tr.Take("192.168.1.66", later); no != nil {
			t.Fatalf("a try within the limit refused: %+v", no)
		}
	}
	at := later
	for i := range 3 * maxKeys {
		at = later.Add(time.Duration(i) * time.Millisecond)
		tr.Take("192.168.1.66", at) // the guesser keeps trying
		tr.Take(fmt.Sprintf("fd00::%x", i), at)
		if n := tr.Keys(); n > maxKeys {
			t.Fatalf("%d sources remembered, want at most %d", n, maxKeys)
		}
	}
	if no := tr.Take("192.168.1.66", at); no == nil || no.All || no.First {
		t.Errorf("the source out of tries: %+v; want it refused, still remembered (not its first refusal)", no)
	}
}

// TestTriesCeiling: all sources together stop at the ceiling, each with
// tries of its own left, and a refusal says which limit and when.
func TestTriesCeiling(t *testing.T) {
	tr := NewTries(rate.Every(time.Minute/10), 10, rate.Every(time.Minute/20), 20, 100)
	now := time.Unix(1_800_000_000, 0)
	for i := range 20 {
		if no := tr.Take(fmt.Sprint("source", i), now); no != nil {
			t.Fatalf("try %d: %+v", i, no)
		}
	}
	no := tr.Take("another", now)
	if no == nil || !no.All || !no.First || no.Retry != 3*time.Second {
		t.Errorf("past the ceiling: %+v; want all's refusal, the first, 3 s to wait", no)
	}
}
