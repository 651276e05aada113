package mcp

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/alerts"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Alert resources; both can be subscribed to.
const (
	URIAlertsActive          = "climate://alerts/active"
	URIAlertsHistory         = "climate://alerts/history"
	URIAlertsHistoryTemplate = "climate://alerts/history{?since,until,limit}"
	defaultAlertsLimit       = 50
	maxAlertsLimit           = 1000
)

// addAlerts registers the alert tools and resources when the hub has alerts.
func (s *Server) addAlerts() {
	if s.opts.Alerts == nil {
		return
	}
	s.addAlertTools()
	s.mcp.AddResource(&sdk.Resource{
		URI: URIAlertsActive, Name: "alerts", Title: "Active alerts", MIMEType: jsonMIME,
		Description: "The alerts that are on now, each with its rule in words, zone, since when and the value that fired it. " +
			"Subscribe to be told the moment an alert fires or clears.",
	}, s.readActiveAlerts)
	history := &sdk.Resource{
		URI: URIAlertsHistory, Name: "alert history", Title: "Alert history", MIMEType: jsonMIME,
		Description: "Alerts that fired and cleared, newest first, with their text, value and time. since, until: now, 24h, 7d, " +
			"today, yesterday, 2026-11-30 or RFC 3339 (default: all kept); limit: at most this many (default 50, at most 1000). " +
			"Subscribe to " + URIAlertsHistory + " to be told of every new entry.",
	}
	s.mcp.AddResource(history, s.readAlertHistory)
	s.addTemplate(&sdk.ResourceTemplate{URITemplate: URIAlertsHistoryTemplate, Name: history.Name,
		Title: history.Title, MIMEType: jsonMIME, Description: history.Description}, s.readAlertHistory)
}

// isAlertsURI reports whether uri is an alert resource one can subscribe to.
func (s *Server) isAlertsURI(uri string) bool {
	return s.opts.Alerts != nil && (uri == URIAlertsActive || uri == URIAlertsHistory)
}

func (s *Server) readActiveAlerts(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	active, err := s.active(ctx)
	if err != nil {
		return nil, err
	}
	return jsonResult(req.Params.URI, map[string]any{"active": active})
}

func (s *Server) readAlertHistory(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	u, err := url.Parse(req.Params.URI)
	if err != nil || u.Scheme != "climate" || u.Host != "alerts" || u.Path != "/history" {
		return nil, invalidParams("URI %q: want %s", req.Params.URI, URIAlertsHistoryTemplate)
	}
	events, err := s.alertHistory(ctx, u.Query())
	if err != nil {
		return nil, invalidParams("URI %q: %v", req.Params.URI, err)
	}
	return jsonResult(req.Params.URI, map[string]any{"events": events})
}

// alertHistory reads the history for the query of a history URI.
func (s *Server) alertHistory(ctx context.Context, q url.Values) ([]eventView, error) {
	for k := range q {
		if k != "since" && k != "until" && k != "limit" {
			return nil, fmt.Errorf("unknown parameter %q; known are since, until, limit", k)
		}
	}
	now := s.opts.Now()
	var since, until time.Time
	var err error
	if v := q.Get("since"); v != "" {
		if since, err = history.ParseTime(v, now, s.opts.Location); err != nil {
			return nil, fmt.Errorf("since: %v", err)
		}
	}
	if v := q.Get("until"); v != "" {
		if until, err = history.ParseTime(v, now, s.opts.Location); err != nil {
			return nil, fmt.Errorf("until: %v", err)
		}
	}
	limit := defaultAlertsLimit
	if v := q.Get("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 1 || limit > maxAlertsLimit {
			return nil, fmt.Errorf("limit %q: want 1 to %d", v, maxAlertsLimit)
		}
	}
	evs, err := s.opts.Alerts.History(ctx, since, until, limit)
	if err != nil {
		s.log.Warn("mcp: alert history", "err", err)
		return nil, err
	}
	out := make([]eventView, 0, len(evs))
	for _, ev := range evs {
		out = append(out, s.viewEvent(ev))
	}
	return out, nil
}

// AlertEvent tells the clients of events of the alert engine: subscribers
// of the active alerts and of the history get resources/updated, and every
// session a log message at warning level with the event's text. The hub
// calls it with the events Observe and Tick return, from the goroutine
// that hands events on (not the reading path): it returns when every
// session has been written to, each write bounded by StreamWriteTimeout.
func (s *Server) AlertEvent(ctx context.Context, events []alerts.Event) {
	if s.opts.Alerts == nil || len(events) == 0 {
		return
	}
	s.mcp.ResourceUpdated(ctx, &sdk.ResourceUpdatedNotificationParams{URI: URIAlertsActive})
	s.mcp.ResourceUpdated(ctx, &sdk.ResourceUpdatedNotificationParams{URI: URIAlertsHistory})
	for _, ev := range events {
		s.logToClients(ctx, "warning", "alert "+ev.Rule+" "+ev.Zone, "alert "+string(ev.Type)+": "+ev.Text)
	}
}

// alertReportLimit is how many alerts a report's material holds at most.
const alertReportLimit = 20

// alertMaterial is what a report says of the alerts: those of its period
// (when each fired and cleared), or for a report on the present the alerts
// that are on; nothing when the hub has no alerts.
func (s *Server) alertMaterial(ctx context.Context, p promptSpec, per period) (string, []*sdk.ResourceContents, error) {
	if s.opts.Alerts == nil {
		return "", nil, nil
	}
	note := "\n\nMention the alerts that are on now (below), if any, with what to do about them."
	uri, read := URIAlertsActive, s.readActiveAlerts
	if p.defaultPeriod != "" {
		note = "\n\nMention the alerts of the period (below, newest first: when each fired or cleared, in words), if any."
		q := url.Values{"since": {per.from}, "until": {per.to}, "limit": {strconv.Itoa(alertReportLimit)}}
		uri, read = URIAlertsHistory+encodeQuery(q), s.readAlertHistory
	}
	res, err := read(ctx, &sdk.ReadResourceRequest{Params: &sdk.ReadResourceParams{URI: uri}})
	if err != nil {
		return "", nil, fmt.Errorf("read %s: %w", uri, err)
	}
	return note, res.Contents, nil
}
