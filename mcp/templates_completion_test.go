package mcp

import (
	"context"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestEveryListedTemplateCompletes: completion knows every resource
// template resources/templates/list names, the alerts' too, each of its
// variables, and completes {zone} to the zones that have readings; a
// variable a template lacks is refused.
func TestEveryListedTemplateCompletes(t *testing.T) {
	ctx := context.Background()
	for name, cs := range map[string]*sdk.ClientSession{
		"hub":         newTestHub(t).inMemory(t, nil),
		"with alerts": newAlertHub(t).inMemory(t, nil),
	} {
		list, err := cs.ListResourceTemplates(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(list.ResourceTemplates) < 5 {
			t.Fatalf("%s lists %d templates", name, len(list.ResourceTemplates))
		}
		for _, rt := range list.ResourceTemplates {
			complete := func(arg string) (*sdk.CompleteResult, error) {
				return cs.Complete(ctx, &sdk.CompleteParams{Ref: &sdk.CompleteReference{Type: "ref/resource", URI: rt.URITemplate},
					Argument: sdk.CompleteParamsArgument{Name: arg}})
			}
			vars := varNames(rt.URITemplate)
			for _, v := range vars {
				res, err := complete(v)
				if err != nil {
					t.Errorf("%s: complete %s of %s: %v", name, v, rt.URITemplate, err)
					continue
				}
				if v == "zone" && name == "hub" && !slices.Equal(res.Completion.Values, []string{"Indoor", "Rain"}) {
					t.Errorf("%s: complete the zone of %s = %v, want the zones", name, rt.URITemplate, res.Completion.Values)
				}
			}
			if _, err := complete("nothing"); err == nil {
				t.Errorf("%s: %s completes a variable it lacks", name, rt.URITemplate)
			}
		}
	}
}

// varNames are the variable names of a template written as the hub writes
// them: {zone}, {measurement}, {?from,to}.
func varNames(template string) []string {
	var vars []string
	for _, part := range strings.Split(template, "{")[1:] {
		expr, _, _ := strings.Cut(part, "}")
		vars = append(vars, strings.Split(strings.TrimPrefix(expr, "?"), ",")...)
	}
	return slices.Compact(vars)
}
