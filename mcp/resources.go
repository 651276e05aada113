package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/history"
	"github.com/climated/climated/sensors"
)

// Resource URIs. Zone and measurement names are written with
// EscapeSegment, queries with encodeQuery.
const (
	URIZones           = "climate://zones"
	uriZonePrefix      = "climate://zone/"
	URIZoneTemplate    = "climate://zone/{zone}"
	URIHistoryTemplate = "climate://history/{zone}/{measurement}{?from,to,step}"
	URIDailyTemplate   = "climate://daily/{zone}{?from,to,measurements}"
	jsonMIME           = "application/json"
	defaultHistoryFrom = "24h"
	defaultDailyFrom   = "7d"
	codeInvalidParams  = -32602
)

// ZoneURI is the resource of one zone's current state.
func ZoneURI(zone string) string { return uriZonePrefix + EscapeSegment(zone) }

// HistoryURI is the history resource of one measurement of a zone.
func HistoryURI(zone string, m sensors.Measurement, q url.Values) string {
	return "climate://history/" + EscapeSegment(zone) + "/" + EscapeSegment(string(m)) + encodeQuery(q)
}

// DailyURI is the daily summary resource of a zone.
func DailyURI(zone string, q url.Values) string {
	return zoneURI("daily", zone, q)
}

// zoneURI is the climate://KIND/ZONE resource, with q as its query.
func zoneURI(kind, zone string, q url.Values) string {
	return "climate://" + kind + "/" + EscapeSegment(zone) + encodeQuery(q)
}

// EscapeSegment percent-encodes every byte of a path segment but RFC
// 3986's unreserved characters (A-Z a-z 0-9 - . _ ~), as a URI
// template's {zone} expands (RFC 6570): the SDK finds the template of a
// read by matching it with that rule, so a character left as it is
// (url.PathEscape keeps & : + = @ $) makes the URI "not found".
// url.PathUnescape reads the segment back.
func EscapeSegment(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// encodeQuery is q as a URI's query, "?" and all, or "" for none: as
// url.Values.Encode writes it, with a space as %20, not +, which the
// templates' query expansion does not have.
func encodeQuery(q url.Values) string {
	if len(q) == 0 {
		return ""
	}
	return "?" + strings.ReplaceAll(q.Encode(), "+", "%20")
}

// invalidParams is the JSON-RPC error for a request whose arguments are wrong.
func invalidParams(format string, args ...any) error {
	return &jsonrpc.Error{Code: codeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

// zoneResources keeps one listed resource per zone in step with the zones
// the hub knows; adding one makes the SDK send resources/list_changed.
type zoneResources struct {
	mu    sync.Mutex
	known map[string]bool
}

func (s *Server) addResources() {
	s.zones = &zoneResources{known: map[string]bool{}}
	s.mcp.AddResource(&sdk.Resource{
		URI: URIZones, Name: "zones", Title: "Zones and sensors", MIMEType: jsonMIME,
		Description: "Every zone of the house with its measurements (unit, source, latest value and time), its sources, " +
			"whether it is stale and its last sensor error: what describe_zones returns.",
	}, s.readZones)
	s.addTemplate(&sdk.ResourceTemplate{
		URITemplate: URIZoneTemplate, Name: "zone", Title: "Current climate of a zone", MIMEType: jsonMIME,
		Description: "The get_climate structure of one zone: its current values, extremes since midnight, trends, rain sums and When.",
	}, s.readZone)
	s.addTemplate(&sdk.ResourceTemplate{
		URITemplate: URIHistoryTemplate, Name: "history", Title: "History of a measurement", MIMEType: jsonMIME,
		Description: "One measurement of one zone over a time range: a summary (count, min, max with their times, mean; sum for rain) " +
			"then points [t, mean, min, max] (rain: [t, sum]) per step. from/to: now, 24h, 7d, today, yesterday, 2026-11-30 or RFC 3339 " +
			"(percent-encode ':' in URIs); default from=24h, to=now. step: 1m, 15m, 1h, 1d; default chosen for at most 500 points, " +
			"and a step that would give more is coarsened, with a note saying so.",
	}, s.readHistory)
	s.addTemplate(&sdk.ResourceTemplate{
		URITemplate: URIDailyTemplate, Name: "daily", Title: "Daily summaries of a zone", MIMEType: jsonMIME,
		Description: "Per local day: min and max with their times, mean, and for rain the day's total, for every measurement of the zone; " +
			"outdoor zones also hdd/cdd (heating/cooling degree days of the day's mean temperature) and, where the hub's location " +
			"is set, sunrise, sunset (local) and daylight. Default from=7d, to=now; at most 31 local days, counting the first and the last one touched (for longer spans: " +
			"climate://months). measurements: a " +
			"comma-separated list to keep (default all).",
	}, s.readDaily)
	s.addRecordsResource()
	s.addMonthsResource()
	s.syncZones()
}

// syncZones keeps one listed resource per zone that is reporting: a new
// zone is added, a zone silent for GoneAfter is removed (it comes back when
// it reports again). Either change makes the SDK send list_changed.
func (s *Server) syncZones() {
	s.zones.mu.Lock()
	defer s.zones.mu.Unlock()
	want := map[string]bool{}
	for _, z := range s.hub.Describe() {
		if s.silent(z) > s.opts.GoneAfter {
			continue
		}
		want[z.Name] = true
		if s.zones.known[z.Name] {
			continue
		}
		s.zones.known[z.Name] = true
		s.mcp.AddResource(&sdk.Resource{
			URI: ZoneURI(z.Name), Name: "zone " + z.Name, Title: z.Name, MIMEType: jsonMIME,
			Description: fmt.Sprintf("Current climate of %s (subscribe to be told when it changes).", z.Name),
		}, s.readZone)
	}
	var gone []string
	for z := range s.zones.known {
		if !want[z] {
			gone = append(gone, ZoneURI(z))
			delete(s.zones.known, z)
		}
	}
	if len(gone) > 0 {
		s.mcp.RemoveResources(gone...)
	}
}

func jsonResult(uri string, v any) (*sdk.ReadResourceResult, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: jsonMIME, Text: string(data)}}}, nil
}

func (s *Server) readZones(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	return jsonResult(req.Params.URI, map[string]any{"zones": s.describe()})
}

// zoneFromURI returns the zone named by a climate://zone/… URI, if it exists.
func (s *Server) zoneFromURI(uri string) (string, bool) {
	rest, ok := strings.CutPrefix(uri, uriZonePrefix)
	if !ok {
		return "", false
	}
	zone, err := url.PathUnescape(rest)
	if err != nil {
		return "", false
	}
	_, ok = s.hub.Snapshot().Climate[zone]
	return zone, ok
}

func (s *Server) readZone(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	zone, ok := s.zoneFromURI(req.Params.URI)
	if !ok {
		return nil, sdk.ResourceNotFoundError(req.Params.URI)
	}
	return jsonResult(req.Params.URI, map[string]any{zone: s.hub.Snapshot().Climate[zone]})
}

// parsedURI is a history or daily URI taken apart.
type parsedURI struct {
	segments []string
	query    url.Values
}

func parseURI(uri, kind string, nseg int) (parsedURI, error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "climate" || u.Host != kind {
		return parsedURI{}, invalidParams("URI %q: want climate://%s/…", uri, kind)
	}
	raw := strings.Split(strings.TrimPrefix(u.EscapedPath(), "/"), "/")
	if len(raw) != nseg {
		return parsedURI{}, invalidParams("URI %q: want %d path segments after climate://%s/", uri, nseg, kind)
	}
	p := parsedURI{query: u.Query()}
	for _, r := range raw {
		seg, err := url.PathUnescape(r)
		if err != nil || seg == "" {
			return parsedURI{}, invalidParams("URI %q: bad path segment %q", uri, r)
		}
		p.segments = append(p.segments, seg)
	}
	for k := range p.query {
		if !slices.Contains(uriParams, k) {
			return parsedURI{}, invalidParams("URI %q: unknown parameter %q; known are %s", uri, k, strings.Join(uriParams, ", "))
		}
	}
	return p, nil
}

// timeRange reads from and to, each with its default.
func (s *Server) timeRange(from, to, defFrom string) (time.Time, time.Time, error) {
	now := s.opts.Now()
	if from == "" {
		from = defFrom
	}
	if to == "" {
		to = "now"
	}
	f, err := history.ParseTime(from, now, s.opts.Location)
	if err != nil {
		return time.Time{}, time.Time{}, fmt.Errorf("from: %v", err)
	}
	t, err := history.ParseTime(to, now, s.opts.Location)
	if err != nil {
		return time.Time{}, time.Time{}, fmt.Errorf("to: %v", err)
	}
	if !f.Before(t) {
		return time.Time{}, time.Time{}, fmt.Errorf("from %s is not before to %s", from, to)
	}
	return f, t, nil
}

// historyArgs are the arguments shared by the history resource and tool;
// the tool's schema is historyInputSchema, whose measurements are the
// catalogue's.
type historyArgs struct {
	Zone        string `json:"zone"`
	Measurement string `json:"measurement"`
	From        string `json:"from,omitempty"`
	To          string `json:"to,omitempty"`
	Step        string `json:"step,omitempty"`
	MaxPoints   int    `json:"max_points,omitempty"`
	// days reads the range in local days (history.Query.Days): the
	// history view's year; not an argument of the tool.
	days bool
}

func (s *Server) history(ctx context.Context, a historyArgs) (*history.Series, error) {
	from, to, err := s.timeRange(a.From, a.To, defaultHistoryFrom)
	if err != nil {
		return nil, err
	}
	var step time.Duration
	if a.Step != "" {
		if step, err = history.ParseDuration(a.Step); err != nil || step < time.Second {
			return nil, fmt.Errorf("step %q: want a duration of at least 1s such as 1m, 15m, 1h, 1d", a.Step)
		}
	}
	if a.MaxPoints < 0 || a.MaxPoints > maxPointsLimit {
		return nil, fmt.Errorf("max_points %d: want 1 to %d", a.MaxPoints, maxPointsLimit)
	}
	res, err := s.hub.Range(ctx, history.Query{Zone: a.Zone, Measurement: sensors.Measurement(a.Measurement),
		From: from, To: to, Step: step, MaxPoints: a.MaxPoints, Days: a.days})
	if err != nil {
		return nil, s.hubError(err, "history")
	}
	res.Columns, res.Points = nonNil(res.Columns), nonNil(res.Points)
	return res, nil
}

func (s *Server) readHistory(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	p, err := parseURI(req.Params.URI, "history", 2)
	if err != nil {
		return nil, err
	}
	res, err := s.history(ctx, historyArgs{Zone: p.segments[0], Measurement: p.segments[1],
		From: p.query.Get("from"), To: p.query.Get("to"), Step: p.query.Get("step")})
	if err != nil {
		return nil, asInvalidParams(err)
	}
	return jsonResult(req.Params.URI, res)
}

// maxDailyDays is the most local days climate://daily answers: a month
// of a weather station's days is about 7,000 tokens (docs/mcp.md), a
// year of them 80,000, more than an assistant should read at once; a
// year is read per month (climate://months).
const maxDailyDays = 31

// localDays counts the local days in loc that [from, to) covers, as the
// daily summaries answer them: from the day of from to the day of to's
// last instant before it, both counted. A day of 23 or 25 hours is one
// day.
func localDays(from, to time.Time, loc *time.Location) int {
	date := func(t time.Time) time.Time {
		y, m, d := t.In(loc).Date()
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	}
	return int(date(to.Add(-time.Nanosecond)).Sub(date(from))/(24*time.Hour)) + 1
}

func (s *Server) daily(ctx context.Context, zone, from, to string) ([]history.Day, error) {
	f, t, err := s.timeRange(from, to, defaultDailyFrom)
	if err != nil {
		return nil, err
	}
	if n := localDays(f, t, s.opts.Location); n > maxDailyDays {
		return nil, fmt.Errorf("daily summaries of at most %d days (a month) at once, not %d (the local days %s to %s): for a longer span read %s month by month, or ask for a month with from and to",
			maxDailyDays, n, f.In(s.opts.Location).Format(time.DateOnly), t.Add(-time.Nanosecond).In(s.opts.Location).Format(time.DateOnly), MonthsURI(zone, url.Values{"year": {strconv.Itoa(t.In(s.opts.Location).Year())}}))
	}
	days, err := s.hub.Daily(ctx, zone, f, t)
	if err != nil {
		return nil, s.hubError(err, "daily")
	}
	return days, nil
}

func (s *Server) readDaily(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	p, err := parseURI(req.Params.URI, "daily", 1)
	if err != nil {
		return nil, err
	}
	if p.query.Has("step") {
		return nil, invalidParams("URI %q: daily summaries take from and to, not step", req.Params.URI)
	}
	days, err := s.daily(ctx, p.segments[0], p.query.Get("from"), p.query.Get("to"))
	if err != nil {
		return nil, asInvalidParams(err)
	}
	if only := p.query.Get("measurements"); only != "" {
		keep := strings.Split(only, ",")
		for _, d := range days {
			keepOnly(d.Measurements, keep)
		}
	}
	return jsonResult(req.Params.URI, map[string]any{"zone": p.segments[0], "days": days})
}

// uriParams are the query parameters of the climate:// resources; each
// resource refuses those it does not take.
var uriParams = []string{"from", "to", "step", "measurements", "since", "year"}

// keepOnly deletes from ms what keep does not name.
func keepOnly[V any](ms map[string]V, keep []string) {
	for m := range ms {
		if !slices.Contains(keep, m) {
			delete(ms, m)
		}
	}
}

// read serves a resource to the server itself (prompts embed resources).
func (s *Server) read(ctx context.Context, uri string) ([]*sdk.ResourceContents, error) {
	var h sdk.ResourceHandler
	switch {
	case uri == URIZones:
		h = s.readZones
	case strings.HasPrefix(uri, uriZonePrefix):
		h = s.readZone
	case strings.HasPrefix(uri, "climate://history/"):
		h = s.readHistory
	case strings.HasPrefix(uri, "climate://daily/"):
		h = s.readDaily
	case strings.HasPrefix(uri, "climate://records/"):
		h = s.readRecords
	case strings.HasPrefix(uri, "climate://months/"):
		h = s.readMonths
	default:
		return nil, sdk.ResourceNotFoundError(uri)
	}
	res, err := h(ctx, &sdk.ReadResourceRequest{Params: &sdk.ReadResourceParams{URI: uri}})
	if err != nil {
		return nil, err
	}
	return res.Contents, nil
}
