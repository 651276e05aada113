package hub

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestRecordSaysNothingAdmitted: a batch whose valid readings Admit's
// functions all refuse records nothing, its states neither, and Record
// says so with sensors.ErrNotAdmitted, joined with the invalid readings'
// errors; a batch of which one reading is admitted records it with the
// states, and a batch of invalid readings only is the invalid readings'
// error, not ErrNotAdmitted.
func TestRecordSaysNothingAdmitted(t *testing.T) {
	ctx := context.Background()
	h := openTest(t, filepath.Join(t.TempDir(), "h.db"), nil)
	now := time.Now().Truncate(time.Second)
	h.Admit(func(r sensors.Reading) bool { return r.Zone != "Refused" })
	reading := func(zone string, v float64) sensors.Reading {
		return sensors.Reading{Zone: zone, Measurement: sensors.Temperature, Value: v, Time: now, Source: "test"}
	}
	bad := reading("Refused", 1e9)
	for _, tc := range []struct {
		name        string
		rs          []sensors.Reading
		notAdmitted bool // the error wraps ErrNotAdmitted
		invalid     bool // the error names an invalid reading
		state       bool // the batch's state is committed
	}{
		{"refused", []sensors.Reading{reading("Refused", 20)}, true, false, false},
		{"refused and invalid", []sensors.Reading{reading("Refused", 20), bad}, true, true, false},
		{"invalid", []sensors.Reading{bad}, false, true, false},
		{"one admitted", []sensors.Reading{reading("Refused", 20), reading("Hall", 20)}, false, false, true},
	} {
		err := h.Record(ctx, sensors.Batch{Readings: tc.rs, States: []sensors.State{{Key: tc.name, Value: "v"}}})
		named := err != nil && strings.Contains(err.Error(), `from "test"`) // Validate's words
		if errors.Is(err, sensors.ErrNotAdmitted) != tc.notAdmitted || named != tc.invalid || (err == nil) != (!tc.notAdmitted && !tc.invalid) {
			t.Errorf("%s: Record = %v", tc.name, err)
		}
		if err := h.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := h.SourceState(ctx, tc.name); err != nil || ok != tc.state {
			t.Errorf("%s: state committed %v (%v), want %v", tc.name, ok, err, tc.state)
		}
	}
}
