package loglimit

import (
	"fmt"
	"testing"
	"time"
)

func TestLimiter(t *testing.T) {
	t0 := time.Unix(1_800_000_000, 0)
	l := New(time.Minute)
	if ok, _ := l.Allow("bad payload\x00a", t0); !ok {
		t.Fatal("first event must be logged")
	}
	if ok, _ := l.Allow("bad payload\x00a", t0.Add(time.Second)); ok {
		t.Error("second event of the same key within the interval was logged")
	}
	if ok, _ := l.Allow("bad payload\x00b", t0.Add(time.Second)); !ok {
		t.Error("another topic must get its own line")
	}
	ok, suppressed := l.Allow("bad payload\x00a", t0.Add(61*time.Second))
	if !ok || suppressed != 1 {
		t.Errorf("after the interval: ok %v, suppressed %d; want true, 1", ok, suppressed)
	}
	// A flood on ever new topics is held to the burst.
	logged := 0
	for i := range 1000 {
		if ok, _ := l.Allow(fmt.Sprint("garbage", i), t0.Add(62*time.Second)); ok {
			logged++
		}
	}
	if logged > logBurst {
		t.Errorf("%d lines for a flood, want at most %d", logged, logBurst)
	}
}
