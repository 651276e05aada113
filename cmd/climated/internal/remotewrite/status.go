package remotewrite

import (
	"context"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// The states of a sender, as /healthz and climated doctor name them.
const (
	StateStarting   = "starting"    // nothing tried yet
	StateUpToDate   = "up to date"  // every reading old enough has been sent
	StateCatchingUp = "catching up" // readings wait, and the store takes them
	StateRetrying   = "retrying"    // the store or the network fails: the same batch again after a back-off
	StateRefused    = "refused"     // the store refuses the hub (credentials, URL): nothing moves until that is mended
	// StateSetBack: every reading recorded since the clock was set back
	// behind readings sent has been sent; those sent ahead of it are
	// passed over when it reaches them (setBack).
	StateSetBack = "clock set back"
)

// Status is how a sender stands.
type Status struct {
	State       string
	URL         string
	LastSuccess time.Time // the last request the store took; zero for none
	SentUpTo    time.Time // the time of the last reading sent
	// Behind is how many readings old enough to be sent wait, and
	// BehindFor the age of the oldest of them; counted at most every
	// 10 s.
	Behind    int64
	BehindFor time.Duration
	Sent      int64 // samples the store took, all told (kept across restarts)
	Failed    int64 // samples the store refused for good, all told
	Failures  int64 // requests that failed in this run, retried or not
	Error     string
	// SentAhead is, while the clock is behind readings sent (it was set
	// back), the time of the last of them; zero otherwise.
	SentAhead time.Time
	// Protocol is the remote-write version sent: the configured one, or
	// 1.0 once a store sent 2.0 answered as a 1.0 receiver.
	Protocol string
}

// Status is how the sender stands now.
func (s *Sender) Status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st
}

// caughtUp counts what waits (when it was last counted long enough ago)
// and says whether the sender is up to date.
func (s *Sender) caughtUp(ctx context.Context) {
	s.countBehind(ctx, true)
}

// countBehind counts the readings old enough to be sent that wait after
// the cursor, at most every behindEvery unless force.
func (s *Sender) countBehind(ctx context.Context, force bool) {
	if !force && s.now().Sub(s.counted) < behindEvery {
		return
	}
	s.counted = s.now()
	upto := s.sendable()
	n, err := s.hist.CountAfter(ctx, s.cur.pos, upto)
	if err != nil {
		return
	}
	var age time.Duration
	if n > 0 {
		if t, ok, err := s.hist.NextAfter(ctx, s.cur.pos); err == nil && ok {
			age = s.now().Sub(time.Unix(t, 0))
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.Behind, s.st.BehindFor = n, age
	if n == 0 && (s.st.State == StateCatchingUp || s.st.State == StateStarting || s.st.State == StateSetBack) {
		s.st.State = StateUpToDate
		if s.back != nil {
			s.st.State = StateSetBack
		}
	}
}

// Health is the sender's part of /healthz.
func (s *Sender) Health() any {
	st := s.Status()
	out := map[string]any{"state": st.State, "behind_readings": st.Behind,
		"behind_seconds": int64(st.BehindFor.Seconds()), "sent": st.Sent, "failed": st.Failed, "protocol": st.Protocol}
	if !st.LastSuccess.IsZero() {
		out["last_success"] = st.LastSuccess.UTC().Format(time.RFC3339)
	}
	if !st.SentUpTo.IsZero() {
		out["sent_up_to"] = st.SentUpTo.UTC().Format(time.RFC3339)
	}
	if !st.SentAhead.IsZero() {
		out["sent_ahead_up_to"] = st.SentAhead.UTC().Format(time.RFC3339)
	}
	return out
}

// Warnings are what /healthz warns of: a store that fails or refuses.
func (s *Sender) Warnings() []string {
	st := s.Status()
	if st.State != StateRetrying && st.State != StateRefused {
		return nil
	}
	return []string{fmt.Sprintf("remote write to %s %s (%d readings behind): %s", s.host, st.State, st.Behind, st.Error)}
}

var (
	sentDesc = prometheus.NewDesc("climated_remote_write_samples_sent_total",
		"Samples the remote-write store took, all told (kept across restarts).", []string{"url"}, nil)
	failedDesc = prometheus.NewDesc("climated_remote_write_samples_failed_total",
		"Samples the remote-write store refused for good (not sent again), all told.", []string{"url"}, nil)
	behindDesc = prometheus.NewDesc("climated_remote_write_behind_samples",
		"Readings old enough to be sent that the remote-write store does not have yet.", []string{"url"}, nil)
	behindSecDesc = prometheus.NewDesc("climated_remote_write_behind_seconds",
		"Age of the oldest reading the remote-write store does not have yet; 0 when none waits.", []string{"url"}, nil)
	lastDesc = prometheus.NewDesc("climated_remote_write_last_success_timestamp_seconds",
		"When the remote-write store last took a request (Unix seconds); 0 for never.", []string{"url"}, nil)
	upDesc = prometheus.NewDesc("climated_remote_write_up",
		"1 while the remote-write store takes requests (up to date or catching up), 0 while it fails or refuses.", []string{"url"}, nil)
	failuresDesc = prometheus.NewDesc("climated_remote_write_request_failures_total",
		"Requests to the remote-write store that failed since the hub started, retried or not.", []string{"url"}, nil)
)

// Senders are the hub's senders, one per store: one collector of
// /metrics for all, each series labelled with its store's URL.
type Senders []*Sender

func (ss Senders) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{sentDesc, failedDesc, behindDesc, behindSecDesc, lastDesc, upDesc, failuresDesc} {
		ch <- d
	}
}

func (ss Senders) Collect(ch chan<- prometheus.Metric) {
	for _, s := range ss {
		s.collect(ch)
	}
}

// Close closes every sender's cursor (Sender.Close), for senders that
// never ran.
func (ss Senders) Close() {
	for _, s := range ss {
		s.Close()
	}
}

// Poke, Hold and Release tell every sender (Sender.Poke …).
func (ss Senders) Poke() {
	for _, s := range ss {
		s.Poke()
	}
}

func (ss Senders) Hold(at time.Time) {
	for _, s := range ss {
		s.Hold(at)
	}
}

func (ss Senders) Release() {
	for _, s := range ss {
		s.Release()
	}
}

// Health is the senders' part of /healthz, one object per store in the
// order of the configuration.
func (ss Senders) Health() any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s.Health()
	}
	return out
}

// Warnings are the senders' warnings of /healthz.
func (ss Senders) Warnings() []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Warnings()...)
	}
	return out
}

func (s *Sender) collect(ch chan<- prometheus.Metric) {
	st := s.Status()
	up, last := 0.0, 0.0
	if st.State == StateUpToDate || st.State == StateCatchingUp || st.State == StateSetBack {
		up = 1
	}
	if !st.LastSuccess.IsZero() {
		last = float64(st.LastSuccess.Unix())
	}
	for _, m := range []struct {
		d *prometheus.Desc
		t prometheus.ValueType
		v float64
	}{
		{sentDesc, prometheus.CounterValue, float64(st.Sent)}, {failedDesc, prometheus.CounterValue, float64(st.Failed)},
		{behindDesc, prometheus.GaugeValue, float64(st.Behind)}, {behindSecDesc, prometheus.GaugeValue, st.BehindFor.Seconds()},
		{lastDesc, prometheus.GaugeValue, last}, {upDesc, prometheus.GaugeValue, up},
		{failuresDesc, prometheus.CounterValue, float64(st.Failures)},
	} {
		ch <- prometheus.MustNewConstMetric(m.d, m.t, m.v, st.URL)
	}
}

var _ prometheus.Collector = Senders(nil)
