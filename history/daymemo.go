package history

import (
	"context"
	"maps"
	"sync"
	"time"
)

// dayMemo holds the days one request has read, by zone and local
// midnight, so that a request that reads the same days twice (a year's
// report: its digest over the period, then the months resource over the
// year) reads and summarises each once, and both see the same days.
type dayMemo struct {
	mu   sync.Mutex
	days map[memoKey]Day
}

type memoKey struct {
	zone  string
	start int64
}

type dayMemoKey struct{}

// WithDayMemo returns ctx carrying a memo of the daily summaries read
// under it: for one request, whose parts may read the same days, not for
// longer (a day read is not read again while the memo lives).
func WithDayMemo(ctx context.Context) context.Context {
	return context.WithValue(ctx, dayMemoKey{}, &dayMemo{days: map[memoKey]Day{}})
}

func dayMemoOf(ctx context.Context) *dayMemo {
	m, _ := ctx.Value(dayMemoKey{}).(*dayMemo)
	return m
}

// get is the day of zone starting at start, if read; its measurements
// are the caller's own (callers keep only some).
func (m *dayMemo) get(zone string, start time.Time) (Day, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d, ok := m.days[memoKey{zone, start.Unix()}]
	if ok {
		d.Measurements = maps.Clone(d.Measurements)
	}
	return d, ok
}

func (m *dayMemo) put(zone string, start time.Time, d Day) {
	d.Measurements = maps.Clone(d.Measurements)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.days[memoKey{zone, start.Unix()}] = d
}

// memoDays is zoneDays through the request's memo: the days it holds
// from it, the others read and added to it.
func (s *Store) memoDays(ctx context.Context, z zoneSeries, starts []time.Time) ([]Day, error) {
	memo := dayMemoOf(ctx)
	if memo == nil {
		return s.zoneDays(ctx, z, starts)
	}
	days := make([]Day, len(starts))
	var need []time.Time
	var at []int
	for i, d := range starts {
		if day, ok := memo.get(z.Name, d); ok {
			days[i] = day
			continue
		}
		need, at = append(need, d), append(at, i)
	}
	if len(need) == 0 {
		return days, nil
	}
	read, err := s.zoneDays(ctx, z, need)
	if err != nil {
		return nil, err
	}
	for j, i := range at {
		days[i] = read[j]
		memo.put(z.Name, need[j], read[j])
	}
	return days, nil
}
