package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// year is the span every "over a year" answer asks for.
const year = "365d"

// plan is what to measure, and what could not be.
type plan struct {
	cs      *sdk.ClientSession
	h       house
	s       surface
	answers []answer
	skipped []skipped
}

func (p *plan) skip(kind, of, why string) {
	p.skipped = append(p.skipped, skipped{Kind: kind, Of: of, Why: why})
}

func (p *plan) tool(label, name string, args map[string]any) {
	p.answers = append(p.answers, answer{label: label, kind: "tool", of: name, call: func(ctx context.Context) (int, error) {
		res, err := p.cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			return 0, err
		}
		return toolSize(res)
	}})
}

// addTools plans every listed tool: those whose answers grow with the
// history at their longest spans, the others with what they require.
func (p *plan) addTools() {
	for _, t := range p.s.tools {
		switch t.Name {
		case "get_history":
			for _, z := range p.h.zones {
				for _, m := range p.h.series[z] {
					p.tool(fmt.Sprintf("get_history %s/%s a year", z, m), t.Name, map[string]any{"zone": z, "measurement": m, "from": year})
				}
			}
		case "write_climate_report":
			p.addReports(t)
		case "create_alert":
			p.addAlertPair(t)
		case "delete_alert":
			// measured with create_alert, the rules it made
		default:
			p.addGeneric(t)
		}
	}
}

// addReports plans write_climate_report for each kind, and for each
// period where the kind's prompt takes one.
func (p *plan) addReports(t *sdk.Tool) {
	periods := schemaEnum(t.InputSchema, "period")
	for _, kind := range schemaEnum(t.InputSchema, "kind") {
		if !p.promptTakes(kind, "period") {
			p.tool("write_climate_report "+kind, t.Name, map[string]any{"kind": kind})
			continue
		}
		for _, period := range periods {
			p.tool("write_climate_report "+kind+" "+period, t.Name, map[string]any{"kind": kind, "period": period})
		}
	}
}

// promptTakes reports whether the prompt called name has the argument arg.
func (p *plan) promptTakes(name, arg string) bool {
	i := slices.IndexFunc(p.s.prompts, func(pr *sdk.Prompt) bool { return pr.Name == name })
	return i >= 0 && slices.ContainsFunc(p.s.prompts[i].Arguments, func(a *sdk.PromptArgument) bool { return a.Name == arg })
}

// addAlertPair measures create_alert with a rule that never fires, and
// delete_alert with the rules it made, so that the hub is left as found.
func (p *plan) addAlertPair(create *sdk.Tool) {
	deletes := slices.ContainsFunc(p.s.tools, func(t *sdk.Tool) bool { return t.Name == "delete_alert" })
	if !deletes {
		p.skip("tool", create.Name, "no delete_alert to remove the rules it would make")
		return
	}
	var mu sync.Mutex
	var ids []string
	n := 0
	p.answers = append(p.answers, answer{label: "create_alert", kind: "tool", of: create.Name, call: func(ctx context.Context) (int, error) {
		n++
		res, err := p.cs.CallTool(ctx, &sdk.CallToolParams{Name: create.Name, Arguments: map[string]any{
			"zone": p.h.main, "measurement": "Temperature", "kind": "above", "threshold": 80, "name": fmt.Sprintf("yearhouse %d", n)}})
		if err != nil {
			return 0, err
		}
		size, err := toolSize(res)
		var made struct{ ID string }
		if t, ok := res.Content[0].(*sdk.TextContent); ok && err == nil {
			err = json.Unmarshal([]byte(t.Text), &made)
		}
		mu.Lock()
		ids = append(ids, made.ID)
		mu.Unlock()
		return size, err
	}})
	p.answers = append(p.answers, answer{label: "delete_alert", kind: "tool", of: "delete_alert", call: func(ctx context.Context) (int, error) {
		mu.Lock()
		if len(ids) == 0 {
			mu.Unlock()
			return 0, fmt.Errorf("no rule of create_alert left to delete")
		}
		id := ids[0]
		ids = ids[1:]
		mu.Unlock()
		res, err := p.cs.CallTool(ctx, &sdk.CallToolParams{Name: "delete_alert", Arguments: map[string]any{"id": id}})
		if err != nil {
			return 0, err
		}
		return toolSize(res)
	}})
}

// addGeneric plans a tool with its required arguments filled; one that
// takes a range or span is asked for each of them.
func (p *plan) addGeneric(t *sdk.Tool) {
	args := map[string]any{}
	for _, name := range schemaRequired(t.InputSchema) {
		v, ok := p.fill(name, schemaEnum(t.InputSchema, name))
		if !ok {
			p.skip("tool", t.Name, "no value for its required argument "+name)
			return
		}
		args[name] = v
	}
	spans := schemaEnum(t.InputSchema, "range")
	if len(spans) == 0 {
		p.tool(t.Name, t.Name, args)
		return
	}
	for _, s := range spans {
		a := map[string]any{"range": s}
		for k, v := range args {
			if k != "range" {
				a[k] = v
			}
		}
		p.tool(t.Name+" "+describeArgs(a), t.Name, a)
	}
}

// fill is the value an argument gets by its name: the main zone, its
// temperature, a year; else the first its schema allows.
func (p *plan) fill(name string, allowed []string) (string, bool) {
	switch name {
	case "zone":
		return p.h.main, true
	case "measurement":
		if p.h.has(p.h.main, "Temperature") {
			return "Temperature", true
		}
		return p.h.series[p.h.main][0], true
	case "from", "since":
		return year, true
	case "to", "until":
		return "now", true
	}
	if len(allowed) > 0 {
		return allowed[0], true
	}
	return "", false
}
