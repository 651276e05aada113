package mqtt

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Log rate limits for bad input: one line per key (kind and topic) per
// interval, and at most logBurst lines per interval over all keys, so that
// a flood of garbage on ever new topics cannot flood the log either. The
// counters in Stats see every event.
const (
	DefaultLogInterval = time.Minute
	logBurst           = 20
	maxLogKeys         = 1024
)

// limiter decides which bad-input events get a log line.
type limiter struct {
	mu    sync.Mutex
	every time.Duration
	all   *rate.Limiter // logBurst lines per interval over all keys
	keys  map[string]*logKey
}

type logKey struct {
	logged     time.Time
	suppressed uint64
}

func newLimiter(every time.Duration) *limiter {
	return &limiter{every: every, all: rate.NewLimiter(rate.Limit(logBurst/every.Seconds()), logBurst), keys: make(map[string]*logKey)}
}

// allow reports whether an event of key at now may be logged, and how many
// events of key were suppressed since its last line (to say so in it).
func (l *limiter) allow(key string, now time.Time) (bool, uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := l.keys[key]
	if k != nil && now.Sub(k.logged) < l.every {
		k.suppressed++
		return false, 0
	}
	if k == nil && len(l.keys) >= maxLogKeys {
		for name, old := range l.keys {
			if now.Sub(old.logged) >= l.every {
				delete(l.keys, name)
			}
		}
	}
	if (k == nil && len(l.keys) >= maxLogKeys) || !l.all.AllowN(now, 1) {
		if k != nil {
			k.suppressed++
		}
		return false, 0
	}
	if k == nil {
		k = &logKey{}
		l.keys[key] = k
	}
	n := k.suppressed
	k.logged, k.suppressed = now, 0
	return true, n
}
