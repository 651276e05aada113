package datacmd

import (
	"testing"
	"time"
)

// "No alert since 7d." once; now said in words.
func TestSinceWords(t *testing.T) {
	loc := time.UTC
	from := time.Date(2026, 11, 1, 0, 0, 0, 0, loc)
	for arg, want := range map[string]string{
		"7d": "in the last 7 days", "24h": "in the last 24 hours", "1d": "in the last day", "2w": "in the last 2 weeks", "1.5d": "in the last 36 hours",
		"4w": "in the last 4 weeks", "90m": "in the last 90 minutes", "1h": "in the last hour", "today": "today",
		"yesterday": "since yesterday", "2026-11-01": "since 2026-11-01 00:00", "1.5h": "in the last 90 minutes",
	} {
		if got := sinceWords(arg, from, loc); got != want {
			t.Errorf("sinceWords(%q) = %q, want %q", arg, got, want)
		}
	}
}
