package notify

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/climated/climated/history/alerts"
)

// A phone should not buzz for every turn of a rule that flaps. So one
// alert (a rule in a zone) is notified at once, and then at most once per
// PerAlert: its events within that time wait, each replacing the one
// before, and the latest goes out when the time is up, saying how many it
// stands for. The phone ends with the alert's latest state either way.

// alertKey is one alert: a rule in a zone.
type alertKey struct{ rule, zone string }

// pace is what the notifier keeps of an alert notified within PerAlert.
type pace struct {
	last time.Time // when its last event went into the queue
	held *item     // its latest event since, waiting for last+PerAlert
}

// maxAlerts bounds the alerts paced at once (four times the queue); the
// events of more alerts than that within PerAlert are queued unpaced,
// still within the queue's bound. The engine's own bound on events (see
// alerts.DefaultMaxEventsPerSecond) keeps a house well under it.
func (n *Notifier) maxAlerts() int { return 4 * n.opts.Queue }

// admit queues e, or holds it when its alert was notified less than
// PerAlert ago; n.mu is held and release(now) has run.
func (n *Notifier) admit(e alerts.Event, now time.Time) {
	if n.opts.PerAlert < 0 {
		n.push(e, 0)
		return
	}
	k := alertKey{e.Rule, e.Zone}
	p := n.alerts[k]
	switch {
	case p == nil && len(n.alerts) >= n.maxAlerts():
		n.push(e, 0)
	case p == nil:
		n.alerts[k] = &pace{last: now}
		n.push(e, 0)
	default:
		folded := 0
		if p.held != nil {
			folded = p.held.folded + 1
			n.stats.Folded++
		}
		p.held = &item{ev: e, folded: folded}
	}
}

// release queues the held events whose alert's PerAlert is up, the
// earliest first, and drops alerts that are quiet; n.mu is held.
func (n *Notifier) release(now time.Time) {
	var due []*item
	for k, p := range n.alerts {
		switch {
		case now.Sub(p.last) < n.opts.PerAlert:
		case p.held == nil:
			delete(n.alerts, k)
		default:
			due = append(due, p.held)
			p.held, p.last = nil, now
		}
	}
	slices.SortFunc(due, func(a, b *item) int { return cmp.Compare(a.ev.Time.UnixNano(), b.ev.Time.UnixNano()) })
	for _, it := range due {
		n.push(it.ev, it.folded)
	}
}

// tidy releases what is due and logs the drops when their line is due;
// it returns how long until the next of them (0: nothing waits) and
// whether the queue has events.
func (n *Notifier) tidy(now time.Time) (next time.Duration, queued bool) {
	n.mu.Lock()
	n.release(now)
	warn := n.dropWarning(now)
	soonest := func(at time.Time) {
		if d := max(at.Sub(now), time.Millisecond); next == 0 || d < next {
			next = d
		}
	}
	for _, p := range n.alerts {
		if p.held != nil {
			soonest(p.last.Add(n.opts.PerAlert))
		}
	}
	if n.drops > 0 {
		soonest(n.dropLog.Add(DropLogEvery))
	}
	queued = len(n.queue) > 0
	n.mu.Unlock()
	if warn != nil {
		n.log.Warn("webhook queue full: dropped the oldest alerts", warn...)
	}
	return next, queued
}

// sleep waits d (a retry's back-off), or with d 0 until there is
// something to send, releasing held events and logging drops meanwhile.
// It returns false when ctx ended.
func (n *Notifier) sleep(ctx context.Context, d time.Duration) bool {
	end := time.Now().Add(d)
	for {
		now := time.Now()
		if d > 0 && !now.Before(end) {
			return true
		}
		wait, queued := n.tidy(now)
		if d == 0 && queued {
			return true
		}
		if d > 0 && (wait == 0 || end.Sub(now) < wait) {
			wait = end.Sub(now)
		}
		var timer *time.Timer
		var fire <-chan time.Time
		if wait > 0 {
			timer = time.NewTimer(wait)
			fire = timer.C
		}
		select {
		case <-ctx.Done():
		case <-n.wake:
		case <-fire:
		}
		if timer != nil {
			timer.Stop()
		}
		if ctx.Err() != nil {
			return false
		}
	}
}
