package alerting

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/history/alerts"
)

// The hand-off from the reading path to the dispatcher is bounded: with
// the dispatcher stuck, alertQueue batches wait, the next are dropped and
// counted, nothing blocks, and the warning is logged once, not per batch.
func TestAlertQueueBound(t *testing.T) {
	var logs strings.Builder
	a := &Alerter{events: make(chan []alerts.Event, alertQueue), log: slog.New(slog.NewTextHandler(&logs, nil))}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range alertQueue + 10 {
			a.hand([]alerts.Event{{Rule: "house.co2", Zone: "Bedroom"}})
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("hand blocked with the dispatcher stuck")
	}
	if len(a.events) != alertQueue || a.dropped.Load() != 10 {
		t.Errorf("%d batches queued, %d dropped; want %d and 10", len(a.events), a.dropped.Load(), alertQueue)
	}
	if n := strings.Count(logs.String(), "notifications dropped"); n != 1 {
		t.Errorf("%d warnings for 10 dropped batches, want 1:\n%s", n, logs.String())
	}
}
