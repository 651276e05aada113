package hw

import (
	"context"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/climated/climated/sensors/internal/i2cfake"
)

// TestSEN5xVariantMismatch: a chip of another variant than configured
// fails at start, saying what it is and what to write.
func TestSEN5xVariantMismatch(t *testing.T) {
	starting := func(product string) []i2cfake.Step {
		return []i2cfake.Step{
			i2cfake.Write(0, 0xD0, 0x14), i2cfake.Read(20*time.Millisecond, aqText(product)...),
			i2cfake.Write(0, 0xD0, 0x33), i2cfake.Read(20*time.Millisecond, aqText("B4F3C2A1D0E9F8A7")...),
			i2cfake.Write(0, 0x00, 0x21),
		}
	}
	synctest.Test(t, func(t *testing.T) {
		m, open := mux(map[uint16]*i2cfake.Bus{0x69: i2cfake.Sensirion(0x69, starting("SEN50")...)})
		s := newSource(t, Config{Sensors: []SensorConfig{{Zone: "Living", Chip: "sen54"}}}, open, nil)
		_, err := s.ReadOnce(context.Background())
		if err == nil || !strings.Contains(err.Error(), "the chip at 0x69 is a SEN50, configured as sen54: write chip: sen50 (or sen5x)") {
			t.Errorf("ReadOnce: %v, want the variant named", err)
		}
		if err := m.Close(); err != nil {
			t.Error(err)
		}
	})
	if names := ChipNames(); !slices.Contains(names, "sen50") || !slices.Contains(names, "sen5x") {
		t.Errorf("chip names %v", names)
	}
}
