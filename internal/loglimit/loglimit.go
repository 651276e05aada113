// Package loglimit decides which events of bad input get a log line: one
// line per key (a kind of event and where it came from) per interval, and
// a ceiling over all keys, so that a flood of garbage under ever new keys
// cannot flood the log either. Counters beside it see every event; the
// line says how many of its key it stands for.
package loglimit

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Bounds: at most logBurst lines per interval over all keys, and
// maxLogKeys keys remembered.
const (
	logBurst   = 20
	maxLogKeys = 1024
)

// Limiter decides which bad-input events get a log line.
type Limiter struct {
	mu    sync.Mutex
	every time.Duration
	all   *rate.Limiter // logBurst lines per interval over all keys
	keys  map[string]*logKey
}

type logKey struct {
	logged     time.Time
	suppressed uint64
}

// New is a Limiter giving each key a line per interval every.
func New(every time.Duration) *Limiter {
	return &Limiter{every: every, all: rate.NewLimiter(rate.Limit(logBurst/every.Seconds()), logBurst), keys: make(map[string]*logKey)}
}

// Allow reports whether an event of key at now may be logged, and how many
// events of key were suppressed since its last line (to say so in it).
func (l *Limiter) Allow(key string, now time.Time) (bool, uint64) {
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
