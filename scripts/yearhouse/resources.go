package main

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/mcp"
)

func (p *plan) read(kind, of, uri string) {
	p.answers = append(p.answers, answer{label: uri, kind: kind, of: of, call: func(ctx context.Context) (int, error) {
		res, err := p.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		if err != nil {
			return 0, err
		}
		return resourceSize(res), nil
	}})
}

// addResources plans every listed resource, and every template at the
// spans of spans, else once with what fill gives its variables.
func (p *plan) addResources(ctx context.Context) {
	for _, r := range p.s.resources {
		p.read("resource", r.URI, r.URI)
	}
	for _, t := range p.s.templates {
		vars := p.spans(t.URITemplate)
		if vars == nil {
			one, why := p.fillTemplate(ctx, t.URITemplate)
			if why != "" {
				p.skip("template", t.URITemplate, why)
				continue
			}
			vars = []map[string]string{one}
		}
		for _, v := range vars {
			p.read("template", t.URITemplate, expand(t.URITemplate, v))
		}
	}
}

// spans are the instances measured of the templates whose answers grow
// with the span, by the template's path: the daily summaries over a
// week and over 31 days (the longest the hub answers); the months of the
// year, of the station and of a room; the records; a history of each
// kind of measurement over a year. Nil for other templates.
func (p *plan) spans(template string) []map[string]string {
	main, room := p.h.main, p.h.room
	path, _, _ := strings.Cut(template, "{?")
	switch path {
	case "climate://daily/{zone}":
		return []map[string]string{{"zone": main, "from": "7d"}, {"zone": main, "from": "30d"}, {"zone": room, "from": "30d"}}
	case "climate://months/{zone}":
		return []map[string]string{{"zone": main}, {"zone": room}}
	case "climate://records/{zone}":
		return []map[string]string{{"zone": main}, {"zone": room}}
	case "climate://history/{zone}/{measurement}":
		var vars []map[string]string
		for _, z := range []string{main, room} {
			for _, m := range p.h.byKind(z) {
				vars = append(vars, map[string]string{"zone": z, "measurement": m, "from": year})
			}
		}
		return vars
	}
	return nil
}

var templateVar = regexp.MustCompile(`\{([?&]?)([^}]*)\}`)

// fillTemplate gives each variable of a path its value (fill, else the
// first the server completes it with); of the query's, only those with a
// fill. why says what could not be filled.
func (p *plan) fillTemplate(ctx context.Context, template string) (vars map[string]string, why string) {
	vars = map[string]string{}
	for _, m := range templateVar.FindAllStringSubmatch(template, -1) {
		for _, name := range strings.Split(m[2], ",") {
			v, ok := p.fill(name, nil)
			if !ok && m[1] == "" {
				v, ok = p.complete(ctx, &sdk.CompleteReference{Type: "ref/resource", URI: template}, name)
			}
			if ok {
				vars[name] = v
			} else if m[1] == "" {
				return nil, "no value for {" + name + "}"
			}
		}
	}
	return vars, ""
}

// complete is the first value the server completes argument arg with.
func (p *plan) complete(ctx context.Context, ref *sdk.CompleteReference, arg string) (string, bool) {
	vals := p.completions(ctx, ref, arg)
	if len(vals) == 0 {
		return "", false
	}
	return vals[0], true
}

func (p *plan) completions(ctx context.Context, ref *sdk.CompleteReference, arg string) []string {
	res, err := p.cs.Complete(ctx, &sdk.CompleteParams{Ref: ref, Argument: sdk.CompleteParamsArgument{Name: arg}})
	if err != nil || res == nil {
		return nil
	}
	return res.Completion.Values
}

// expand fills a URI template's simple ({zone}) and query ({?from,to})
// variables as the server names its resources (mcp.EscapeSegment, RFC
// 6570's simple expansion); query variables without a value are left
// out. (The SDK's template library, yosida95/uritemplate v3.0.2, expands
// a rune's code point rather than its UTF-8 bytes: ü as %FC.)
func expand(template string, vars map[string]string) string {
	return templateVar.ReplaceAllStringFunc(template, func(m string) string {
		sub := templateVar.FindStringSubmatch(m)
		if sub[1] == "" {
			return mcp.EscapeSegment(vars[sub[2]])
		}
		var q []string
		for _, name := range strings.Split(sub[2], ",") {
			if v, ok := vars[name]; ok {
				q = append(q, name+"="+url.QueryEscape(v))
			}
		}
		if len(q) == 0 {
			return ""
		}
		return sub[1] + strings.Join(q, "&")
	})
}

// addPrompts plans every listed prompt: for the whole house (its optional
// arguments left out), at each period the server completes when it takes
// one.
func (p *plan) addPrompts(ctx context.Context) {
	for _, pr := range p.s.prompts {
		args := map[string]string{}
		var periods []string
		missing := ""
		for _, a := range pr.Arguments {
			if a.Name == "period" {
				periods = p.completions(ctx, &sdk.CompleteReference{Type: "ref/prompt", Name: pr.Name}, "period")
				continue
			}
			if !a.Required {
				continue
			}
			v, ok := p.fill(a.Name, nil)
			if !ok {
				v, ok = p.complete(ctx, &sdk.CompleteReference{Type: "ref/prompt", Name: pr.Name}, a.Name)
			}
			if !ok {
				missing = a.Name
				break
			}
			args[a.Name] = v
		}
		p.addPrompt(pr, args, periods, missing)
	}
}

func (p *plan) addPrompt(pr *sdk.Prompt, args map[string]string, periods []string, missing string) {
	if missing != "" {
		p.skip("prompt", pr.Name, "no value for its required argument "+missing)
		return
	}
	if slices.ContainsFunc(pr.Arguments, func(a *sdk.PromptArgument) bool { return a.Name == "period" }) && len(periods) == 0 {
		p.skip("prompt", pr.Name, "the server completes no period")
		return
	}
	if len(periods) == 0 {
		periods = []string{""}
	}
	for _, period := range periods {
		a := map[string]string{}
		for k, v := range args {
			a[k] = v
		}
		label := "prompt " + pr.Name
		if period != "" {
			a["period"] = period
			label += " " + period
		}
		p.answers = append(p.answers, answer{label: label, kind: "prompt", of: pr.Name, call: func(ctx context.Context) (int, error) {
			res, err := p.cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: pr.Name, Arguments: a})
			if err != nil {
				return 0, err
			}
			return promptSize(res), nil
		}})
	}
}

// describeArgs writes a tool's arguments short: zone/measurement, then
// the others' values by name.
func describeArgs(args map[string]any) string {
	var parts []string
	if z, ok := args["zone"]; ok {
		if m, ok := args["measurement"]; ok {
			parts = append(parts, fmt.Sprintf("%v/%v", z, m))
		} else {
			parts = append(parts, fmt.Sprint(z))
		}
	}
	var names []string
	for k := range args {
		if k != "zone" && k != "measurement" {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		parts = append(parts, fmt.Sprint(args[k]))
	}
	return strings.Join(parts, " ")
}
