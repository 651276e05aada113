package mcp

import (
	"context"
	"slices"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMonthsTemplateCompletes: every resource template the hub lists
// completes its zone argument, as climate://daily and climate://records
// do. Tried: completion/complete for the zone of
// climate://months/{zone}{?year,measurements}, the template the hub
// lists, with a real client. A hole: templateVariables (completion.go)
// lacks the months template, so completion answers invalid params "no
// resource template" for a template resources/templates/list names.
func TestMonthsTemplateCompletes(t *testing.T) {
	h := newTestHub(t)
	cs := h.inMemory(t, nil)
	ctx := context.Background()
	list, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(list.ResourceTemplates, func(rt *sdk.ResourceTemplate) bool { return rt.URITemplate == URIMonthsTemplate }) {
		t.Fatalf("the hub does not list %s", URIMonthsTemplate)
	}
	res, err := cs.Complete(ctx, &sdk.CompleteParams{Ref: &sdk.CompleteReference{Type: "ref/resource", URI: URIMonthsTemplate}, Argument: sdk.CompleteParamsArgument{Name: "zone", Value: ""}})
	if err != nil {
		t.Fatalf("complete the zone of %s: %v", URIMonthsTemplate, err)
	}
	if want := []string{"Indoor", "Rain"}; !slices.Equal(res.Completion.Values, want) {
		t.Errorf("complete the zone of %s = %v, want %v", URIMonthsTemplate, res.Completion.Values, want)
	}
}
