package mcp

import (
	"context"
	"net/url"
	"time"

	"github.com/climated/climated/history"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// URIRecordsTemplate is the records resource of a zone: a resource, not a
// tool, so that tools/list stays within its budget.
const URIRecordsTemplate = "climate://records/{zone}{?since}"

// RecordsURI is the records resource of a zone.
func RecordsURI(zone string, q url.Values) string {
	return zoneURI("records", zone, q)
}

func (s *Server) addRecordsResource() {
	s.addTemplate(&sdk.ResourceTemplate{
		URITemplate: URIRecordsTemplate, Name: "records", Title: "Records of a zone", MIMEType: jsonMIME,
		Description: "Each measurement's lowest and highest value this year and ever, with their times (rain: the wettest " +
			"day). since (24h, 7d, today …): only the records set since then, each with the one it beat (was).",
	}, s.readRecords)
}

func (s *Server) readRecords(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	p, err := parseURI(req.Params.URI, "records", 1)
	if err != nil {
		return nil, err
	}
	for k := range p.query {
		if k != "since" {
			return nil, invalidParams("URI %q: records take since only, not %s", req.Params.URI, k)
		}
	}
	var since time.Time
	if v := p.query.Get("since"); v != "" {
		if since, err = history.ParseTime(v, s.opts.Now(), s.opts.Location); err != nil {
			return nil, invalidParams("since: %v", err)
		}
	}
	recs, err := s.hub.Records(ctx, p.segments[0], since)
	if err != nil {
		return nil, asInvalidParams(s.hubError(err, "records"))
	}
	return jsonResult(req.Params.URI, recs)
}
