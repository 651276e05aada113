package mcp

import (
	"context"
	"net/url"
	"strconv"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// URIMonthsTemplate is the months resource of a zone: a year per month
// and as a whole, as weewx's NOAA yearly summary gives it.
const URIMonthsTemplate = "climate://months/{zone}{?year,measurements}"

// MonthsURI is the months resource of a zone.
func MonthsURI(zone string, q url.Values) string {
	return zoneURI("months", zone, q)
}

func (s *Server) addMonthsResource() {
	s.addTemplate(&sdk.ResourceTemplate{
		URITemplate: URIMonthsTemplate, Name: "months", Title: "Months and year of a zone", MIMEType: jsonMIME,
		Description: "A year of a zone per month and as a whole, from its daily summaries: each measurement's mean of the days' " +
			"means, lowest and highest with their times, an amount's total and its largest day (rain: the wettest), the wind's " +
			"prevailing direction, outdoor zones' degree days. year: 2026 (default this year); measurements: a comma-separated " +
			"list to keep (default all). For the days of a month read " +
			"climate://daily with from and to.",
	}, s.readMonths)
}

func (s *Server) readMonths(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	p, err := parseURI(req.Params.URI, "months", 1)
	if err != nil {
		return nil, err
	}
	year := s.opts.Now().In(s.opts.Location).Year()
	for k := range p.query {
		if k != "year" && k != "measurements" {
			return nil, invalidParams("URI %q: months take year and measurements, not %s", req.Params.URI, k)
		}
	}
	if v := p.query.Get("year"); v != "" {
		if year, err = strconv.Atoi(v); err != nil || year < 1970 || year > 9999 {
			return nil, invalidParams("year %q: want a year such as %d", v, s.opts.Now().Year())
		}
	}
	y, err := s.hub.YearOf(ctx, p.segments[0], year)
	if err != nil {
		return nil, asInvalidParams(s.hubError(err, "months"))
	}
	if only := p.query.Get("measurements"); only != "" {
		keep := strings.Split(only, ",")
		for _, sp := range append(y.Months, y.Year) {
			keepOnly(sp.Measurements, keep)
		}
	}
	return jsonResult(req.Params.URI, y)
}
