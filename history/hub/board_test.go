package hub

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// A source's report that changes its zones' health (a fault, offline, its
// end) is an update of those zones, so that clients hear of an offline
// hub at once; a report that only says the source read again is not.
func TestReportOfAChangedHealthIsAnUpdate(t *testing.T) {
	h := openTest(t, filepath.Join(t.TempDir(), "c.db"), nil)
	var mu sync.Mutex
	var got []string
	h.OnUpdate(func(zones []string, added bool) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, fmt.Sprint(zones, added))
	})
	now := time.Now()
	offline := fmt.Errorf("hub climated/a: %w", sensors.ErrOffline)
	for _, st := range []sensors.Status{
		{Source: "mqtt/climated/a", Zones: []string{"Garden"}, LastSeen: now},                                        // first, healthy: nothing new
		{Source: "mqtt/climated/a", Zones: []string{"Garden"}, LastSeen: now.Add(time.Second)},                       // read again: nothing new
		{Source: "mqtt/climated/a", Zones: []string{"Garden", "Attic"}, Err: offline, ErrTime: now},                  // offline: an update
		{Source: "mqtt/climated/a", Zones: []string{"Garden", "Attic"}, Err: offline, ErrTime: now.Add(time.Minute)}, // still offline
		{Source: "i2c1/0x76", Zones: []string{"Indoor"}, Err: errors.New("bme280: nack"), ErrTime: now},              // first, a fault: an update
		{Source: "mqtt/climated/a", Zones: []string{"Garden", "Attic"}, LastSeen: now.Add(2 * time.Minute)},          // back: an update
	} {
		h.Report(st)
	}
	want := []string{"[Garden Attic] false", "[Indoor] false", "[Garden Attic] false"}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(got, want) {
		t.Errorf("updates %q, want %q", got, want)
	}
}
