package main

import (
	"fmt"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/climate"
)

// The words for readings the history holds ahead of the clock
// (history.Ahead), the same at start-up, in the doctor and after an
// import.

// aheadText says how many readings are ahead of the clock, their range,
// and what the hub does with them.
func aheadText(a history.Ahead, now time.Time) string {
	verb := "are"
	if a.Count == 1 {
		verb = "is"
	}
	return fmt.Sprintf("%s in the history %s stamped ahead of the clock (%s), from %s to %s: a clock was ahead when they were recorded or exported; "+
		"they are kept, and are not the latest readings until the clock reaches them",
		plural(int(a.Count), "reading"), verb, rfc3339(now), rfc3339(a.First), rfc3339(a.Last))
}

// aheadFix says what to do: set a clock that is behind, or keep only the
// readings that are not ahead (climated has no command that deletes
// readings: export and import into a new database do it).
func aheadFix(now time.Time) string {
	// export's --to is exclusive, the horizon is not.
	to := time.Unix(climate.Horizon(now)+1, 0)
	return "if the clock is behind, set it (timedatectl set-ntp true); if it is right and you want them gone: stop the hub, " +
		"climated export --to " + rfc3339(to) + " > kept.csv, climated import --db NEW.db kept.csv, then name NEW.db as database: " +
		"in the configuration (raw readings are kept 30 days by default: older summaries do not carry over)"
}

func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }
