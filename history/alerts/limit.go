package alerts

import (
	"time"

	"golang.org/x/time/rate"
)

// The bound on events: a burst of DefaultBurst, then DefaultMaxEventsPerSecond.
// A house of ten zones whose every rule fires at once stays within the
// burst; a sensor gone mad, or a rule that flaps, does not flood the
// assistant, the broker and the webhook.
const (
	DefaultMaxEventsPerSecond = 5.0
	DefaultBurst              = 50
)

// limiter is the bound, on the engine's clock.
type limiter struct{ *rate.Limiter }

func newLimiter(perSecond float64, burst int) limiter {
	if perSecond <= 0 {
		perSecond = DefaultMaxEventsPerSecond
	}
	if burst <= 0 {
		burst = DefaultBurst
	}
	return limiter{rate.NewLimiter(rate.Limit(perSecond), burst)} // full at first
}

func (l limiter) allow(now time.Time) bool { return l.AllowN(now, 1) }
