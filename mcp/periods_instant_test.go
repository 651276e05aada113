package mcp

import (
	"context"
	"slices"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestEveryPeriodAtItsFirstInstant: every prompt that takes a period
// answers for every period at the very first instant of a year (and so
// of its month and day), and half a second later; a calendar period's
// bounds are whole seconds, to at least a second after from and not
// before the instant the period ends.
func TestEveryPeriodAtItsFirstInstant(t *testing.T) {
	for _, after := range []time.Duration{0, 500 * time.Millisecond} {
		now := berlinNewYear(t).Add(after)
		cs := newTestHubWith(t, Options{Location: now.Location(), Now: func() time.Time { return now }}).inMemory(t, nil)
		for _, p := range promptSpecs {
			if !slices.Contains(p.args, periodArg) {
				continue
			}
			for _, name := range periodNames() {
				if _, err := cs.GetPrompt(context.Background(), &sdk.GetPromptParams{Name: p.name, Arguments: map[string]string{"period": name}}); err != nil {
					t.Errorf("%s for %s at %s: %v", p.name, name, now.Format(time.RFC3339Nano), err)
				}
			}
		}
		for _, name := range periodNames() {
			per, _ := findPeriod(name, "", now)
			if per.bounds == nil {
				continue
			}
			_, until := per.bounds(now)
			from, err1 := time.Parse(time.RFC3339, per.from)
			to, err2 := time.Parse(time.RFC3339, per.to)
			if err1 != nil || err2 != nil || to.Before(from.Add(time.Second)) || to.Before(until) {
				t.Errorf("%s at %s: from %s to %s", name, now.Format(time.RFC3339Nano), per.from, per.to)
			}
		}
	}
}

// berlinNewYear is the first instant of 2027 in Europe/Berlin.
func berlinNewYear(t *testing.T) time.Time {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	return time.Date(2027, 1, 1, 0, 0, 0, 0, berlin)
}
