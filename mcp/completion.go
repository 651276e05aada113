package mcp

import (
	"context"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/climated/climated/history/climate"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Suggested values for time and step arguments.
var (
	timeSuggestions = []string{"now", "1h", "24h", "7d", "30d", "today", "yesterday"}
	stepSuggestions = []string{"1m", "5m", "15m", "1h", "6h", "1d"}
)

// maxCompletions is the most values one completion returns (the spec's limit).
const maxCompletions = 100

// complete suggests zone names, measurements, periods, times and steps for
// prompt arguments and resource template variables.
func (s *Server) complete(_ context.Context, req *sdk.CompleteRequest) (*sdk.CompleteResult, error) {
	p := req.Params
	if err := s.completable(p.Ref, p.Argument.Name); err != nil {
		return nil, err
	}
	var ctxArgs map[string]string
	if p.Context != nil {
		ctxArgs = p.Context.Arguments
	}
	var candidates []string
	switch p.Argument.Name {
	case "zone":
		candidates = s.zoneCandidates(p.Ref)
	case "measurement", "measurements":
		candidates = s.measurementNames(ctxArgs["zone"])
	case "period":
		candidates = periodNames()
	case "from", "to", "since", "until":
		candidates = timeSuggestions
	case "step":
		candidates = stepSuggestions
	}
	var values []string
	prefix := strings.ToLower(p.Argument.Value)
	for _, c := range candidates {
		if strings.HasPrefix(strings.ToLower(c), prefix) {
			values = append(values, c)
		}
	}
	res := &sdk.CompleteResult{Completion: sdk.CompletionResultDetails{Values: []string{}, Total: len(values)}}
	if len(values) > maxCompletions {
		values, res.Completion.HasMore = values[:maxCompletions], true
	}
	if values != nil {
		res.Completion.Values = values
	}
	return res, nil
}

// zoneCandidates are the zones a prompt can be about (an air-quality
// report only those with air quality), or every zone for a resource
// template.
func (s *Server) zoneCandidates(ref *sdk.CompleteReference) []string {
	if p, ok := findPrompt(ref.Name); ok && ref.Type == "ref/prompt" {
		zones, _ := p.zoneChoice(s)
		return zones
	}
	return s.zoneNames()
}

// measurementNames lists the measurements of zone, or of every zone when
// zone is empty or unknown.
func (s *Server) measurementNames(zone string) []string {
	zones := s.hub.Describe()
	known := slices.ContainsFunc(zones, func(z climate.ZoneInfo) bool { return z.Name == zone })
	var names []string
	for _, z := range zones {
		if known && z.Name != zone {
			continue
		}
		for _, m := range z.Measurements {
			if !slices.Contains(names, string(m.Name)) {
				names = append(names, string(m.Name))
			}
		}
	}
	slices.Sort(names)
	return names
}

// templateExpr is an expression of a URI template (RFC 6570): its
// operator, then its variables.
var templateExpr = regexp.MustCompile(`\{[+#./;?&]?([^}]*)\}`)

// addTemplate registers a resource template with the SDK and keeps its
// variables for completion, so that every template the hub lists
// completes, and no other.
func (s *Server) addTemplate(rt *sdk.ResourceTemplate, h sdk.ResourceHandler) {
	s.mcp.AddResourceTemplate(rt, h)
	if s.templates == nil {
		s.templates = map[string][]string{}
	}
	var vars []string
	for _, m := range templateExpr.FindAllStringSubmatch(rt.URITemplate, -1) {
		for _, v := range strings.Split(m[1], ",") {
			v, _, _ = strings.Cut(strings.TrimSuffix(v, "*"), ":")
			vars = append(vars, v)
		}
	}
	s.templates[rt.URITemplate] = vars
}

// completable refuses, as invalid params (-32602), completion for a
// prompt or resource template the hub does not have, or for an argument
// it does not take: suggesting zone names there would tell the client the
// prompt exists.
func (s *Server) completable(ref *sdk.CompleteReference, arg string) error {
	if ref == nil {
		return invalidParams("completion/complete needs a ref (ref/prompt or ref/resource)")
	}
	var args []string
	switch ref.Type {
	case "ref/prompt":
		p, ok := findPrompt(ref.Name)
		if !ok {
			return invalidParams("no prompt %q: the prompts are %s", ref.Name, strings.Join(promptNames(), ", "))
		}
		for _, a := range p.args {
			args = append(args, a.Name)
		}
	case "ref/resource":
		vars, ok := s.templates[ref.URI]
		if !ok {
			return invalidParams("no resource template %q: the templates are %s", ref.URI, strings.Join(slices.Sorted(maps.Keys(s.templates)), ", "))
		}
		args = vars
	default:
		return invalidParams("ref type %q: want ref/prompt or ref/resource", ref.Type)
	}
	if !slices.Contains(args, arg) {
		return invalidParams("%q takes no argument %q: it takes %s", ref.Name+ref.URI, arg, strings.Join(args, ", "))
	}
	return nil
}

func promptNames() []string {
	names := make([]string, len(promptSpecs))
	for i, p := range promptSpecs {
		names[i] = p.name
	}
	return names
}
