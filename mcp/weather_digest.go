package mcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/weather"
)

// weatherFact says what one measurement's summary over the period means,
// at formats a time in local words.
type weatherFact struct {
	m   sensors.Measurement
	say func(st history.Summary, at func(int64) string) string
}

// weatherFacts are the digest's facts, in the order it gives them; a
// fact of a measurement the zone lacks, or one with nothing to say, is
// left out.
var weatherFacts = []weatherFact{
	{sensors.Temperature, func(st history.Summary, at func(int64) string) string {
		return fmt.Sprintf("temperature %g to %g °C (lowest %s, highest %s)", st.Min, st.Max, at(st.MinTime), at(st.MaxTime))
	}},
	{sensors.WindStrength, func(st history.Summary, _ func(int64) string) string {
		return fmt.Sprintf("wind mean %g km/h, up to %g", st.Mean, st.Max)
	}},
	{sensors.WindAngle, func(st history.Summary, _ func(int64) string) string {
		return fmt.Sprintf("wind from %s (%g°, the vector mean of the directions)", weather.Compass(st.Mean), st.Mean)
	}},
	{sensors.GustStrength, func(st history.Summary, at func(int64) string) string {
		return fmt.Sprintf("strongest gust %g km/h at %s", st.Max, at(st.MaxTime))
	}},
	{sensors.Rain, func(st history.Summary, _ func(int64) string) string {
		if st.Sum == nil || *st.Sum == 0 {
			return "no rain"
		}
		return fmt.Sprintf("rain %g mm", *st.Sum)
	}},
	{sensors.RainRate, func(st history.Summary, at func(int64) string) string {
		if st.Max == 0 {
			return ""
		}
		return fmt.Sprintf("heaviest rain %g mm/h at %s", st.Max, at(st.MaxTime))
	}},
	{sensors.UV, func(st history.Summary, at func(int64) string) string {
		return fmt.Sprintf("UV index up to %g at %s: %s (WHO)", st.Max, at(st.MaxTime), weather.UVCategory(st.Max))
	}},
	{sensors.SolarRadiation, func(st history.Summary, at func(int64) string) string {
		return fmt.Sprintf("solar radiation up to %g W/m² at %s", st.Max, at(st.MaxTime))
	}},
	{sensors.Lightning, func(st history.Summary, _ func(int64) string) string {
		if st.Sum == nil || *st.Sum == 0 {
			return ""
		}
		return fmt.Sprintf("%g lightning strikes", *st.Sum)
	}},
}

// weatherDigest is a line of facts a zone over period p, worked out here
// so that the model reads them rather than works them out: the vector
// mean of the wind's direction as a point of the compass, the WHO
// category of the UV index, the records broken.
func (s *Server) weatherDigest(ctx context.Context, zones []string, p period) (string, error) {
	if len(zones) == 0 {
		return "", nil
	}
	from, to, err := s.timeRange(p.from, p.to, p.from)
	if err != nil {
		return "", err
	}
	at := s.localClock(from, to)
	var b strings.Builder
	b.WriteString("Digest:")
	for _, z := range zones {
		facts, err := s.zoneWeather(ctx, z, from, to, at)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\n- %s: %s.", z, strings.Join(facts, "; "))
	}
	return b.String(), nil
}

// localClock formats a time in the hub's time zone: the time of day when
// [from, to) is within one day, else with the day and date.
func (s *Server) localClock(from, to time.Time) func(int64) string {
	layout := "15:04"
	if to.Sub(from) > 24*time.Hour {
		layout = "Mon 2 Jan 15:04"
	}
	return func(t int64) string { return time.Unix(t, 0).In(s.opts.Location).Format(layout) }
}

// headFromDays is the shortest period whose digest reads the daily
// summaries the hub keeps, so that a week's or a year's digest is as quick
// as a day's: the whole local days of the period as kept (today's worked
// out), and the hours before its first local midnight from the tiers (a
// period that starts at a midnight has none). A shorter one (the last 24
// hours) reads the tiers alone.
const headFromDays = 2 * 24 * time.Hour

// zoneWeather lists the facts of zone over [from, to).
func (s *Server) zoneWeather(ctx context.Context, zone string, from, to time.Time, at func(int64) string) ([]string, error) {
	days, err := s.hub.Daily(ctx, zone, from, to)
	if err != nil {
		return nil, s.hubError(err, "weather digest")
	}
	span, err := s.daysSpan(ctx, zone, from, to, days)
	if err != nil {
		return nil, err
	}
	sums, err := s.factSummaries(ctx, zone, from, to, span)
	if err != nil {
		return nil, err
	}
	var facts []string
	for _, f := range weatherFacts {
		if st, ok := sums[string(f.m)]; ok {
			if fact := f.say(st, at); fact != "" {
				facts = append(facts, fact)
			}
		}
	}
	facts = append(facts, s.feelsLike(zone)...)
	facts = append(facts, dayFacts(days)...)
	recs, err := s.hub.Records(ctx, zone, from)
	if err != nil {
		return nil, s.hubError(err, "weather digest")
	}
	facts = append(facts, s.brokenFact(recs.Broken, at))
	return facts, nil
}

// daysSpan is [from, to) of zone as one span of days (nil when the
// period is read from the tiers): days, the period's local days, with the
// first one's hours before from left out, its hours from from on read
// from the tiers in its place.
func (s *Server) daysSpan(ctx context.Context, zone string, from, to time.Time, days []history.Day) (*history.Span, error) {
	first := climate.LocalMidnight(from, s.opts.Location)
	if to.Sub(from) < headFromDays && !from.Equal(first) {
		return nil, nil
	}
	if !from.Equal(first) && len(days) > 0 && days[0].Date == first.Format(time.DateOnly) {
		y, m, d := first.Date()
		head, err := s.factSummaries(ctx, zone, from, climate.DayStart(y, m, d+1, s.opts.Location), nil)
		if err != nil {
			return nil, err
		}
		days = append([]history.Day{{Date: days[0].Date, Measurements: head}}, days[1:]...)
	}
	sp := history.SpanOf("", days)
	return &sp, nil
}

// factSummaries are the summaries over [from, to) of the measurements of
// zone the facts are about, by name (factSummary).
func (s *Server) factSummaries(ctx context.Context, zone string, from, to time.Time, span *history.Span) (map[string]history.Summary, error) {
	out := map[string]history.Summary{}
	for _, f := range weatherFacts {
		if !s.has(zone, f.m) {
			continue
		}
		st, ok, err := s.factSummary(ctx, zone, f.m, from, to, span)
		if err != nil {
			return nil, err
		}
		if ok {
			out[string(f.m)] = st
		}
	}
	return out, nil
}

// factSummary is m's summary over [from, to): from span when there is
// one (its days'), else from the history's tiers.
func (s *Server) factSummary(ctx context.Context, zone string, m sensors.Measurement, from, to time.Time, span *history.Span) (history.Summary, bool, error) {
	if span != nil {
		st, ok := span.Measurements[string(m)]
		return st.Summary(), ok, nil
	}
	res, err := s.hub.Range(ctx, history.Query{Zone: zone, Measurement: m, From: from, To: to, Step: max(to.Sub(from), time.Second)})
	if err != nil {
		return history.Summary{}, false, s.hubError(err, "weather digest")
	}
	if res.Summary == nil {
		return history.Summary{}, false, nil
	}
	return *res.Summary, true, nil
}

// feelsLike is what the live structure derives of the air now.
func (s *Server) feelsLike(zone string) []string {
	z := s.hub.Snapshot().Climate[zone]
	var out []string
	for _, k := range []struct{ key, name string }{
		{sensors.KeyFeelsLike, "feels like"}, {sensors.KeyHeatIndex, "heat index"},
		{sensors.KeyWindChill, "wind chill"}, {sensors.KeyHumidex, "humidex"},
	} {
		if v, ok := z[k.key]; ok {
			out = append(out, fmt.Sprintf("%s %v °C now", k.name, v))
		}
	}
	return out
}

// dayFacts are the sun's times of the last day and the period's degree
// days, where the daily summaries have them.
func dayFacts(days []history.Day) []string {
	var out []string
	var hdd, cdd float64
	n := 0
	for _, d := range days {
		if d.HDD != nil {
			hdd, cdd, n = hdd+*d.HDD, cdd+*d.CDD, n+1
		}
	}
	if n > 0 {
		out = append(out, fmt.Sprintf("degree days over %d day(s): heating %.1f, cooling %.1f", n, hdd, cdd))
	}
	if len(days) > 0 && days[len(days)-1].Daylight != "" {
		d := days[len(days)-1]
		out = append(out, fmt.Sprintf("on %s sunrise %s, sunset %s, daylight %s", d.Date, d.Sunrise, d.Sunset, d.Daylight))
	}
	return out
}

// brokenFact names the records broken, with those they beat.
func (s *Server) brokenFact(bs []history.Broken, at func(int64) string) string {
	if len(bs) == 0 {
		return "no records broken"
	}
	var parts []string
	for _, b := range bs {
		info, _ := sensors.Lookup(sensors.Measurement(b.Measurement))
		when, was := b.Day, b.WasDay
		if b.Time != 0 {
			when, was = at(b.Time), time.Unix(b.WasTime, 0).In(s.opts.Location).Format(time.DateOnly)
		}
		parts = append(parts, fmt.Sprintf("%s %s record %g %s (%s; was %g on %s)", b.Measurement, b.Record, b.Value, info.Unit, when, b.Was, was))
	}
	return "records broken: " + strings.Join(parts, ", ")
}
