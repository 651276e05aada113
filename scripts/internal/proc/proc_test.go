package proc

import (
	"os"
	"testing"
	"time"
)

// TestCPU: this process's CPU time grows as it works (within 5 s of
// work, however busy the machine); a process that does not exist has
// none.
func TestCPU(t *testing.T) {
	before := CPU(os.Getpid())
	after := before
	for start := time.Now(); after <= before && time.Since(start) < 5*time.Second; {
		after = CPU(os.Getpid())
	}
	if after <= before {
		t.Errorf("CPU went from %v to %v in 5 s of work", before, after)
	}
	if got := CPU(1 << 30); got != 0 {
		t.Errorf("CPU of no process: %v", got)
	}
}
