package alerts

import "time"

// The bound on events: a burst of DefaultBurst, then DefaultMaxEventsPerSecond.
// A house of ten zones whose every rule fires at once stays within the
// burst; a sensor gone mad, or a rule that flaps, does not flood the
// assistant, the broker and the webhook.
const (
	DefaultMaxEventsPerSecond = 5.0
	DefaultBurst              = 50
)

// limiter is a token bucket on the engine's clock.
type limiter struct {
	rate, burst, tokens float64
	last                time.Time
}

func newLimiter(rate float64, burst int, now time.Time) limiter {
	if rate <= 0 {
		rate = DefaultMaxEventsPerSecond
	}
	if burst <= 0 {
		burst = DefaultBurst
	}
	return limiter{rate: rate, burst: float64(burst), tokens: float64(burst), last: now}
}

func (l *limiter) allow(now time.Time) bool {
	if d := now.Sub(l.last).Seconds(); d > 0 {
		l.tokens = min(l.burst, l.tokens+d*l.rate)
		l.last = now
	}
	if l.tokens < 1 {
		return false
	}
	l.tokens--
	return true
}
