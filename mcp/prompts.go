package mcp

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
)

// period is a named time range of the report prompts; step is the width of
// the temperature curve's points (24 of them), none where the daily
// summaries are curve enough: so a report's data stays within its context
// budget (TestContextBudget). A calendar period's from and to are worked
// out when it is asked for (bounds); months says it is read from the
// months resource (a year of days is too long for a report), year which.
type period struct {
	name, from, to, about, step string
	bounds                      func(now time.Time) (from, to time.Time)
	months                      bool
	year                        int
}

var periods = []period{
	{name: "today", about: "today (since local midnight)", step: "1h", bounds: func(now time.Time) (time.Time, time.Time) {
		return climate.LocalMidnight(now, now.Location()), now
	}},
	{name: "yesterday", from: "yesterday", to: "today", about: "yesterday (the previous local day)", step: "1h"},
	{name: "last_24h", from: "24h", to: "now", about: "the last 24 hours", step: "1h"},
	{name: "last_7_days", from: "7d", to: "now", about: "the last 7 days"}, // the daily summaries are the curve
	{name: "last_30_days", from: "30d", to: "now", about: "the last 30 days"},
	{name: "this_month", about: "this month (since the 1st)", bounds: func(now time.Time) (time.Time, time.Time) {
		return climate.DayStart(now.Year(), now.Month(), 1, now.Location()), now
	}},
	{name: "last_month", about: "last month", bounds: func(now time.Time) (time.Time, time.Time) {
		loc := now.Location()
		return climate.DayStart(now.Year(), now.Month()-1, 1, loc), climate.DayStart(now.Year(), now.Month(), 1, loc)
	}},
	{name: "this_year", about: "this year (since 1 January), month by month", months: true, bounds: func(now time.Time) (time.Time, time.Time) {
		return climate.DayStart(now.Year(), time.January, 1, now.Location()), now
	}},
}

func periodNames() []string {
	var names []string
	for _, p := range periods {
		names = append(names, p.name)
	}
	return names
}

// findPeriod is the period called name (def when name is empty), its
// calendar bounds worked out at now, in the hub's time zone, as
// periodBounds writes them.
func findPeriod(name, def string, now time.Time) (period, error) {
	if name == "" {
		name = def
	}
	for _, p := range periods {
		if p.name != name {
			continue
		}
		if p.bounds != nil {
			from, to := periodBounds(p.bounds(now))
			p.from, p.to, p.year = from.Format(time.RFC3339), to.Format(time.RFC3339), from.Year()
		}
		return p, nil
	}
	return period{}, fmt.Errorf("period %q: want one of %s", name, strings.Join(periodNames(), ", "))
}

// periodBounds are a calendar period's bounds in whole seconds, as RFC
// 3339 writes them: to rounded up to the second, and at least a second
// after from, so that a period asked for in its first instant (now at or
// just after from) is not empty: the resources refuse a from that is not
// before to.
func periodBounds(from, to time.Time) (time.Time, time.Time) {
	if whole := to.Truncate(time.Second); whole.Before(to) {
		to = whole.Add(time.Second)
	}
	if least := from.Add(time.Second); to.Before(least) {
		to = least
	}
	return from, to
}

// summaries is the resource of zone's summaries over p: its days, only
// measurements kept when it is not empty, or for a year its months.
func summaries(zone string, p period, measurements string) string {
	q := url.Values{"from": {p.from}, "to": {p.to}}
	uri := DailyURI
	if p.months {
		q, uri = url.Values{"year": {strconv.Itoa(p.year)}}, MonthsURI
	}
	if measurements != "" {
		q.Set("measurements", measurements)
	}
	return uri(zone, q)
}

// promptSpec is one climate-report template.
type promptSpec struct {
	name, title, description string
	args                     []*sdk.PromptArgument
	defaultPeriod            string
	instructions             string
	// material lists the resources that carry the prompt's facts.
	material func(s *Server, zones []string, p period) []string
	// digest, if set, writes facts worked out from the history into the
	// prompt's text (a line a zone), cheaper than the data they come from.
	digest func(s *Server, ctx context.Context, zones []string, p period) (string, error)
	// zones lists the zones the prompt can be about, and zonesAre names
	// them in an error; nil means every zone.
	zones    func(s *Server) []string
	zonesAre string
}

// findPrompt returns the prompt called name.
func findPrompt(name string) (promptSpec, bool) {
	i := slices.IndexFunc(promptSpecs, func(p promptSpec) bool { return p.name == name })
	if i < 0 {
		return promptSpec{}, false
	}
	return promptSpecs[i], true
}

// zoneChoice is the zones p can be about, and what an error calls them.
func (p promptSpec) zoneChoice(s *Server) ([]string, string) {
	if p.zones == nil {
		return s.zoneNames(), "the zones"
	}
	return p.zones(s), p.zonesAre
}

var (
	zoneArg = &sdk.PromptArgument{Name: "zone", Title: "Zone",
		Description: "one zone (Indoor, Bedroom …); leave out for the whole house"}
	periodArg = &sdk.PromptArgument{Name: "period", Title: "Period",
		Description: "today, yesterday, last_24h, last_7_days, last_30_days, this_month, last_month or this_year"}
)

var promptSpecs = []promptSpec{
	{
		name: "climate_report", title: "Climate report", defaultPeriod: "today",
		description: "A report on the climate of the house or one zone over a period (today, yesterday, last_24h, last_7_days, last_30_days, this_month, last_month, this_year).",
		args:        []*sdk.PromptArgument{zoneArg, periodArg},
		instructions: "Write a short climate report for %s over %s. Start with the current conditions, then the period's " +
			"extremes (with the times they happened, in local time), trends, rain and anything unusual. Use the data below; " +
			"do not invent values. Temperatures in °C, pressure in hPa, rain in mm.",
		material: func(s *Server, zones []string, p period) []string {
			var uris []string
			for _, z := range zones {
				uris = append(uris, ZoneURI(z), summaries(z, p, s.climateMeasurements(z)))
				if p.step != "" && s.has(z, sensors.Temperature) {
					uris = append(uris, HistoryURI(z, sensors.Temperature, url.Values{"from": {p.from}, "to": {p.to}, "step": {p.step}}))
				}
			}
			return uris
		},
	},
	{
		name: "comfort_assessment", title: "Comfort assessment",
		description: "Is it comfortable? Temperature, humidity and dew point of the house or one zone against healthy bands.",
		args:        []*sdk.PromptArgument{zoneArg},
		instructions: "Assess the indoor comfort of %s (now, with the last 24 hours for context: %s). Bands: living rooms 20–24 °C, " +
			"bedrooms 16–20 °C; relative humidity 40–60 %% (below 30 %% too dry, above 65 %% risks mould); dew point below 10 °C dry, " +
			"10–16 °C comfortable, above 16 °C muggy — compute it from temperature and humidity (Magnus formula). " +
			"Where a zone measures air quality, include it. " + airGuide + " " +
			"Name each zone's state and one practical suggestion where a value is outside its band.",
		material: func(s *Server, zones []string, _ period) []string {
			var uris []string
			for _, z := range zones {
				uris = append(uris, ZoneURI(z))
			}
			return uris
		},
	},
	{
		name: "ventilation_advice", title: "Ventilation advice",
		description: "When and where to air the house, from CO₂ levels and the outdoor conditions.",
		args:        []*sdk.PromptArgument{zoneArg},
		instructions: "Advise on ventilation for %s (%s). CO₂ bands: below 800 ppm fresh, 800–1000 acceptable, 1000–1400 " +
			"air the room, above 1400 poor. Air also when the VOC index is above 250 or the NOx index well above 1 " +
			"(cooking, combustion), but keep the windows shut while the outdoor PM2.5 is higher than indoors (smoke, smog); " +
			"the WHO 2021 guideline for PM2.5 is 15 µg/m³ as a 24-hour mean. Use the CO₂ and VOC index histories below for " +
			"when levels rise, and the outdoor zone's temperature, humidity and rain (if any) for whether opening windows " +
			"is sensible now.",
		material: func(s *Server, zones []string, _ period) []string {
			uris := []string{URIZones}
			for _, z := range zones {
				for _, m := range []sensors.Measurement{sensors.CO2, sensors.VOCIndex} {
					if s.has(z, m) {
						uris = append(uris, HistoryURI(z, m, url.Values{"from": {"24h"}, "step": {"1h"}}))
					}
				}
			}
			return uris
		},
	},
	airQualityPrompt,
	weatherPrompt,
	{
		name: "rain_summary", title: "Rain and weather summary", defaultPeriod: "last_7_days",
		description: "Rain totals per day and the weather trend (pressure) over a period.",
		args:        []*sdk.PromptArgument{periodArg},
		instructions: "Summarise the rain and the weather for %s over %s: daily totals, the wettest day, the last hour and " +
			"24 hours, and what the pressure trend suggests for the coming hours (falling pressure: unsettled; rising: improving).",
		material: func(s *Server, zones []string, p period) []string {
			var uris []string
			for _, z := range zones {
				if s.has(z, sensors.Rain) || s.has(z, sensors.Pressure) {
					uris = append(uris, ZoneURI(z), summaries(z, p, ""))
				}
			}
			return uris
		},
	},
	{
		name: "sensor_health", title: "Sensor health review",
		description: "Batteries, radio and Wi-Fi signal, stale sensors and sensor faults.",
		instructions: "Review the health of the sensors of %s (%s): battery levels (replace below 20 %%), radio signal " +
			"(rf_status, Netatmo scale, lower is better: 90 low … 60 full), the hub's Wi-Fi (wifi_status: 86 bad, 71 average, " +
			"56 good), zones marked stale and sources with a last error. List what needs attention first.",
		material: func(*Server, []string, period) []string { return []string{URIZones} },
	},
}

// climateMeasurements lists, comma-separated, the measurements of zone a
// climate report is about: not the devices' health (battery, signal),
// which sensor_health covers, nor the station pressure beside the
// sea-level one, nor the air quality beyond PM2.5 and the VOC index, which
// air_quality_report covers.
func (s *Server) climateMeasurements(zone string) string {
	var keep []string
	for _, m := range s.measurementNames(zone) {
		info, ok := sensors.Lookup(sensors.Measurement(m))
		if ok && info.Kind != sensors.Health && !slices.Contains(notInClimateReport, info.Name) {
			keep = append(keep, m)
		}
	}
	return strings.Join(keep, ",")
}

// notInClimateReport are the measurements a climate report leaves to
// other reports: they would double its daily summaries for little news.
var notInClimateReport = []sensors.Measurement{sensors.AbsolutePressure, sensors.PM1, sensors.PM4, sensors.PM10, sensors.NOxIndex}

// has reports whether zone records measurement m.
func (s *Server) has(zone string, m sensors.Measurement) bool {
	_, ok := s.hub.Snapshot().Climate[zone][string(m)]
	return ok
}

func (s *Server) addPrompts() {
	for _, p := range promptSpecs {
		s.mcp.AddPrompt(&sdk.Prompt{Name: p.name, Title: p.title, Description: p.description, Arguments: p.args},
			func(ctx context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
				text, contents, err := s.reportMaterial(ctx, p, req.Params.Arguments)
				if err != nil {
					return nil, invalidParams("%v", err)
				}
				msgs := []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: text}}}
				for _, c := range contents {
					msgs = append(msgs, &sdk.PromptMessage{Role: "user", Content: &sdk.EmbeddedResource{Resource: c}})
				}
				return &sdk.GetPromptResult{Description: p.description, Messages: msgs}, nil
			})
	}
}

// reportMaterial checks a prompt's arguments and gathers its instructions
// and the resources that carry its facts.
func (s *Server) reportMaterial(ctx context.Context, p promptSpec, args map[string]string) (string, []*sdk.ResourceContents, error) {
	for name := range args {
		if !slices.ContainsFunc(p.args, func(a *sdk.PromptArgument) bool { return a.Name == name }) {
			return "", nil, fmt.Errorf("prompt %s has no argument %q", p.name, name)
		}
	}
	zones, subject, err := s.promptZones(p, args["zone"])
	if err != nil {
		return "", nil, err
	}
	// The digest and the resources may read the same days (a year's
	// digest and its months): each is read once.
	ctx = history.WithDayMemo(ctx)
	per := period{about: "the current state"}
	if p.defaultPeriod != "" {
		if per, err = findPeriod(args["period"], p.defaultPeriod, s.opts.Now().In(s.opts.Location)); err != nil {
			return "", nil, err
		}
	}
	text := fmt.Sprintf(p.instructions, subject, per.about) + "\n\n" + s.timesNote()
	if len(zones) == 0 && p.zones != nil {
		_, are := p.zoneChoice(s)
		text += "\n\nThere are no " + strings.TrimPrefix(are, "the ") + " yet: say so."
	}
	if s.simulated() {
		text += "\n\nThe data comes from climated's demo house: it is SIMULATED, say so."
	}
	if p.digest != nil {
		d, err := p.digest(s, ctx, zones, per)
		if err != nil {
			return "", nil, fmt.Errorf("prompt %s: %w", p.name, err)
		}
		if d != "" {
			text += "\n\n" + d
		}
	}
	var contents []*sdk.ResourceContents
	for _, uri := range p.material(s, zones, per) {
		res, err := s.read(ctx, uri)
		if err != nil {
			return "", nil, fmt.Errorf("prompt %s: read %s: %w", p.name, uri, err)
		}
		contents = append(contents, res...)
	}
	note, alerts, err := s.alertMaterial(ctx, p, per)
	if err != nil {
		return "", nil, fmt.Errorf("prompt %s: %w", p.name, err)
	}
	return text + note, append(contents, alerts...), nil
}

// promptZones checks a prompt's zone argument and returns the zones the
// prompt is about and how its text names them: the one zone asked for, or
// every zone it can be about (perhaps none: no zone measures air quality).
func (s *Server) promptZones(p promptSpec, zone string) ([]string, string, error) {
	all, are := p.zoneChoice(s)
	if zone == "" {
		return all, "the whole house", nil
	}
	if !slices.Contains(all, zone) {
		list := strings.Join(all, ", ")
		if list == "" {
			list = "none yet"
		}
		return nil, "", fmt.Errorf("zone %q: %s are %s", zone, are, list)
	}
	return []string{zone}, "the zone " + zone, nil
}

func (s *Server) zoneNames() []string {
	var names []string
	for _, z := range s.hub.Describe() {
		names = append(names, z.Name)
	}
	return names
}
