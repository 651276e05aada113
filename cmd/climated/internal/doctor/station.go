package doctor

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/front"
	"github.com/climated/climated/history"
	"github.com/climated/climated/history/climate"
)

// stationQuiet: a station uploads every minute or so (16 s to 10 min, as
// its console is set); longer than this without one is worth a look.
const stationQuiet = 15 * time.Minute

const stationFix = "set the console's customized upload (Ecowitt protocol) to this hub's address, its port and the path `climated station` prints; the hub's log names uploads that came to a wrong path"

// checkStation reports the weather station's last upload, as the history
// recorded it, and what it brought; and that a station on the LAN can
// reach the hub at all.
func checkStation(ctx context.Context, cfg config.Config, env Env) []Finding {
	if cfg.Station == nil {
		return []Finding{{Check: "station", Status: StatusSkip, Detail: "no station: configured"}}
	}
	var out []Finding
	if host, _, _ := net.SplitHostPort(cfg.Listen); front.IsLoopback(host) {
		out = append(out, Finding{Check: "station", Status: StatusFail, Detail: "the hub listens on " + cfg.Listen + ": a station on the LAN cannot reach it",
			Fix: "set listen: 0.0.0.0:8473 in the configuration"})
	}
	at, sent, err := lastUpload(ctx, cfg.Database)
	switch {
	case err != nil:
		out = append(out, Finding{Check: "station", Status: StatusWarn, Detail: "no upload can be read from the history: " + err.Error(), Fix: stationFix})
	case at.IsZero():
		out = append(out, Finding{Check: "station", Status: StatusWarn, Detail: "no upload from a station in the history yet", Fix: stationFix})
	case env.Now().Sub(at) > stationQuiet:
		out = append(out, Finding{Check: "station", Status: StatusWarn, Detail: fmt.Sprintf("last upload %s ago (%s): %s", ago(env.Now().Sub(at)), at.Format(time.RFC3339), sent),
			Fix: "check the console is on and on the Wi-Fi, and its upload interval; " + stationFix})
	default:
		out = append(out, Finding{Check: "station", Status: StatusOK, Detail: fmt.Sprintf("last upload %s ago: %s", ago(env.Now().Sub(at)), sent)})
	}
	return out
}

// lastUpload is when the history last recorded a station's readings and
// what that upload brought, zone by zone; zero when it never did.
func lastUpload(ctx context.Context, db string) (time.Time, string, error) {
	st, err := history.OpenReadOnly(ctx, db, nil)
	if err != nil {
		return time.Time{}, "", err
	}
	defer st.Close(ctx)
	ws, err := st.Windows(ctx, time.Second)
	if err != nil {
		return time.Time{}, "", err
	}
	var last int64
	for _, w := range ws {
		if strings.HasPrefix(w.Source, "station/") {
			last = max(last, w.Latest.T)
		}
	}
	if last == 0 {
		return time.Time{}, "", nil
	}
	return time.Unix(last, 0), uploaded(ws, last), nil
}

// uploaded is what the station's series recorded at t, zone by zone.
func uploaded(ws []climate.Window, t int64) string {
	byZone := map[string][]string{}
	for _, w := range ws {
		if strings.HasPrefix(w.Source, "station/") && w.Latest.T == t {
			byZone[w.Zone] = append(byZone[w.Zone], string(w.Measurement))
		}
	}
	var parts []string
	for z, ms := range byZone {
		slices.Sort(ms)
		parts = append(parts, z+" ("+strings.Join(ms, ", ")+")")
	}
	slices.Sort(parts)
	return strings.Join(parts, "; ")
}

// ago is d for a person: seconds, minutes or hours.
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d.Minutes()))
	}
	return fmt.Sprintf("%.1f h", d.Hours())
}
