package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/remotewrite"
)

// behindWarn: more readings than this waiting for a store is worth a
// look (a house of 50 series at a reading a minute: 20 minutes).
const behindWarn = 1000

// checkRemoteWrite asks each store of remote_write whether it takes the
// hub's requests (an empty one, with the hub's credentials), and reads
// from the history what it has been sent and what waits.
func checkRemoteWrite(ctx context.Context, cfg config.Config, env Env) []Finding {
	if len(cfg.RemoteWrite) == 0 {
		return []Finding{{Check: "remote write", Status: StatusSkip, Detail: "no remote_write: configured"}}
	}
	var out []Finding
	for _, rw := range cfg.RemoteWrite {
		out = append(out, checkStore(ctx, cfg, rw, env))
	}
	return out
}

func checkStore(ctx context.Context, cfg config.Config, rw remotewrite.Config, env Env) Finding {
	f := Finding{Check: "remote write", Status: StatusOK}
	if refused, err := remotewrite.Probe(ctx, rw); err != nil {
		f.Status, f.Detail = StatusWarn, fmt.Sprintf("%s: %v", rw.URL, err)
		f.Fix = "is the store running and reachable from this machine? The hub keeps the readings and sends them when it answers"
		if errors.Is(err, remotewrite.ErrTakesV1Only) {
			f.Fix = "set protocol: 1.0 for this store (the hub falls back to 1.0 by itself, once a start, and logs it)"
		}
		if refused {
			f.Status, f.Fix = StatusFail, "mend remote_write's url or credentials, or the store's (the hub reads the password and token files at every request: a new password needs no restart)"
		}
		return f
	}
	standing := "nothing sent yet"
	if _, err := os.Stat(cfg.Database); err == nil {
		s, err := remotewrite.ReadStanding(ctx, cfg.Database, rw, time.Duration(cfg.CommitInterval), env.Now())
		switch {
		case err != nil && !remotewrite.IsNoSchema(err):
			standing = "what was sent cannot be read: " + err.Error()
		case s.Found:
			standing = describeStanding(s, env.Now())
			if s.Behind > behindWarn {
				f.Status, f.Fix = StatusWarn, "the hub catches up by itself while the store answers; climated_remote_write_behind_samples on /metrics follows it"
			}
		}
	}
	f.Detail = fmt.Sprintf("%s takes the hub's requests; %s", rw.URL, standing)
	return f
}

// describeStanding is what a store has been sent, in words.
func describeStanding(s remotewrite.Standing, now time.Time) string {
	last := "no request taken yet"
	if !s.SentAt.IsZero() {
		last = "last request taken " + ago(now.Sub(s.SentAt)) + " ago"
	}
	if s.SetBack {
		return fmt.Sprintf("%d samples sent, %d given up, %s; the clock was set back behind readings sent (up to %s): the hub sends those recorded since, and not those again",
			s.Sent, s.Failed, last, time.Unix(s.Position.T, 0).UTC().Format(time.RFC3339))
	}
	return fmt.Sprintf("%d samples sent, %d given up, %s, %d readings waiting", s.Sent, s.Failed, last, s.Behind)
}
