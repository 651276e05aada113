package stampguard

import (
	"fmt"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/history"
)

// The words for readings the history holds ahead of the clock
// (history.Ahead), the same at start-up, in the doctor and after an
// import.

// AheadText says how many readings are ahead of the clock, their range,
// and what the hub does with them.
func AheadText(a history.Ahead, now time.Time) string {
	verb := "are"
	if a.Count == 1 {
		verb = "is"
	}
	return fmt.Sprintf("%s in the history %s stamped ahead of the clock (%s), from %s to %s: a clock was ahead when they were recorded or exported; "+
		"they are kept, and are not the latest readings until the clock reaches them",
		config.Plural(int(a.Count), "reading"), verb, rfc3339(now), rfc3339(a.First), rfc3339(a.Last))
}

// AheadFix says what to do: set a clock that is behind, or delete the
// readings that are ahead (climated forget --ahead: exactly those
// Store.Ahead counts, judged when forget runs, so that advice read hours
// later deletes no reading recorded since).
func AheadFix() string {
	return "if the clock is behind, set it (timedatectl set-ntp true); if it is right and you want them gone: stop the hub, " +
		"climated forget --ahead (it says what it would delete), climated forget --ahead --yes, " +
		"then start the hub (everything else stays, summaries included)"
}

func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }
