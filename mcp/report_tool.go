package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ToolWriteReport asks the client's model to write a climate report.
const ToolWriteReport = "write_climate_report"

// reportMaxTokens bounds the report the client's model is asked for.
const reportMaxTokens = 800

// reportArgs are the arguments of write_climate_report; its schema is
// reportInputSchema, whose kinds are the prompts' names (reportKinds).
type reportArgs struct {
	Kind   string `json:"kind,omitempty"`
	Zone   string `json:"zone,omitempty"`
	Period string `json:"period,omitempty"`
}

// reportKinds are the reports write_climate_report writes: the prompts'.
func reportKinds() []string {
	var kinds []string
	for _, p := range promptSpecs {
		kinds = append(kinds, p.name)
	}
	return kinds
}

func (s *Server) addReportTool() {
	kinds := reportKinds()
	sdk.AddTool(s.mcp, &sdk.Tool{
		Name:  ToolWriteReport,
		Title: "Climate report",
		Description: "A climate report, written by the client's model (sampling), else the instructions and data to " +
			"write it yourself.",
		InputSchema: reportInputSchema(kinds),
		Annotations: readOnly(),
	}, s.writeReport)
}

func (s *Server) writeReport(ctx context.Context, req *sdk.CallToolRequest, a reportArgs) (*sdk.CallToolResult, any, error) {
	kind := a.Kind
	if kind == "" {
		kind = "climate_report"
	}
	spec, ok := findPrompt(kind)
	if !ok {
		return nil, nil, fmt.Errorf("kind %q: want one of %s", kind, strings.Join(reportKinds(), ", "))
	}
	args := map[string]string{}
	for name, v := range map[string]string{"zone": a.Zone, "period": a.Period} {
		if v == "" {
			continue
		}
		if !argAccepted(spec, name) {
			return nil, nil, fmt.Errorf("%s takes no %s argument", kind, name)
		}
		args[name] = v
	}
	text, contents, err := s.reportMaterial(ctx, spec, args)
	if err != nil {
		return nil, nil, err
	}
	var data strings.Builder
	for _, c := range contents {
		fmt.Fprintf(&data, "\n\n%s:\n%s", c.URI, c.Text)
	}
	caps := req.Session.InitializeParams()
	if caps == nil || caps.Capabilities == nil || caps.Capabilities.Sampling == nil {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{
			Text: "This client offers no sampling, so here are the instructions and the data to write the report from.\n\n" + text + data.String(),
		}}}, nil, nil
	}
	// The client's model is asked through a multi round-trip input request
	// (SEP-2322): clients on protocol 2026-07-28 fulfil it and call again;
	// for older ones the SDK sends sampling/createMessage itself.
	if answer, ok := req.Params.InputResponses[reportInput]; ok {
		text, err := sampledText(answer)
		if err != nil {
			return nil, nil, err
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, nil, nil
	}
	return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{reportInput: &sdk.CreateMessageParams{
		SystemPrompt: "You write concise home-climate reports from the data you are given, and never invent values.",
		Messages:     []*sdk.SamplingMessage{{Role: "user", Content: &sdk.TextContent{Text: text + data.String()}}},
		MaxTokens:    reportMaxTokens,
	}}}, nil, nil
}

// reportInput names the sampling request of write_climate_report.
const reportInput = "report"

// sampledText is the text of the client model's answer.
func sampledText(r sdk.InputResponse) (string, error) {
	var content []sdk.Content
	switch r := r.(type) {
	case *sdk.CreateMessageResult:
		content = []sdk.Content{r.Content}
	case *sdk.CreateMessageWithToolsResult:
		content = r.Content
	default:
		return "", fmt.Errorf("the client answered the report request with %T, not a sampling result", r)
	}
	var parts []string
	for _, c := range content {
		if t, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	if len(parts) == 0 {
		return "", fmt.Errorf("the client's model answered without text")
	}
	return strings.Join(parts, "\n"), nil
}

func argAccepted(p promptSpec, name string) bool {
	for _, a := range p.args {
		if a.Name == name {
			return true
		}
	}
	return false
}
