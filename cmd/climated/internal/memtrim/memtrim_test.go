package memtrim

import (
	"runtime"
	"testing"
)

func TestTrimmerDecides(t *testing.T) {
	const mb = 1 << 20
	var tr trimmer
	steps := []struct {
		held uint64
		want bool
	}{
		{30 * mb, false},  // the quiet level
		{32 * mb, false},  // within the slack
		{200 * mb, false}, // a burst, still growing
		{400 * mb, false},
		{400 * mb, true}, // stopped growing: give it back
	}
	for i, s := range steps {
		if got := tr.observe(s.held); got != s.want {
			t.Fatalf("step %d (%d MB): trim %v, want %v", i, s.held/mb, got, s.want)
		}
	}
	tr.trimmed(60 * mb) // what the hub still needs
	for i, held := range []uint64{60 * mb, 70 * mb, 70 * mb} {
		if tr.observe(held) {
			t.Fatalf("after the trim, step %d (%d MB): trimmed again within the slack", i, held/mb)
		}
	}
	if tr.observe(70*mb + trimSlack + 1) {
		t.Fatal("trimmed while still growing")
	}
}

// TestTrimMemoryGivesBack: after a burst of garbage the trimmer gives the
// memory back to the OS within a few of its rounds (the runtime alone takes
// minutes). The rounds are taken here, one after the other, rather than by
// Run's ticker: on a loaded machine the ticker's goroutine could first
// look only after the burst and take it for the quiet level.
func TestTrimMemoryGivesBack(t *testing.T) {
	runtime.GC()
	quiet := heldMemory()
	var tr trimmer
	tr.round() // learns the quiet level
	burst := make([][]byte, 0, 256)
	for range 256 {
		b := make([]byte, 512<<10)
		for i := range b {
			b[i] = 1 // touch it, so that it is really held
		}
		burst = append(burst, b)
	}
	peak := heldMemory()
	if peak < quiet+100<<20 {
		t.Fatalf("the burst held only %d MB more", (peak-quiet)>>20)
	}
	tr.round() // sees the burst
	burst = nil
	runtime.GC() // the burst is garbage now; the runtime still holds it
	for i := 0; i < 5 && heldMemory() > quiet+trimSlack+32<<20; i++ {
		tr.round()
	}
	if held := heldMemory(); held > quiet+trimSlack+32<<20 {
		t.Fatalf("held %d MB after 5 rounds past the burst, %d MB before it", held>>20, quiet>>20)
	}
	_ = burst
}
