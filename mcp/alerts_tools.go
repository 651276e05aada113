package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/sensors"
)

// Tool names of the alert rules.
const (
	ToolCreateAlert = "create_alert"
	ToolListAlerts  = "list_alerts"
	ToolDeleteAlert = "delete_alert"
)

// confirmInput is the ID of create_alert's elicitation: the user confirms
// the rule read back in words.
const confirmInput = "confirm"

// createAlertArgs are create_alert's arguments; durations are words such
// as 15m, 3h, 1d.
type createAlertArgs struct {
	Zone        string   `json:"zone"`
	Measurement string   `json:"measurement,omitempty"`
	Kind        string   `json:"kind"`
	Threshold   float64  `json:"threshold"`
	Clear       *float64 `json:"clear,omitempty"`
	Window      string   `json:"window,omitempty"`
	For         string   `json:"for,omitempty"`
	ClearFor    string   `json:"clear_for,omitempty"`
	Name        string   `json:"name,omitempty"`
}

type deleteAlertArgs struct {
	ID string `json:"id"`
}

type listAlertsArgs struct{}

func number(desc string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "number", Description: desc}
}

func createAlertSchema(measurements []string) *jsonschema.Schema {
	// A direction crosses no threshold (alerts.Rule.Validate says so).
	measurements = slices.DeleteFunc(slices.Clone(measurements), func(m string) bool {
		info, _ := sensors.Lookup(sensors.Measurement(m))
		return info.Kind == sensors.Direction
	})
	var kinds []string
	for _, k := range alerts.Kinds() {
		kinds = append(kinds, string(k))
	}
	return object(map[string]*jsonschema.Schema{
		"zone":        {Type: "string"},
		"measurement": enum("not for stale, condensation", measurements),
		"kind": enum("rise, fall: by threshold within window; stale: silent for 'for'; "+
			"condensation: dew point within threshold °C of an outside wall", kinds),
		"threshold": number("in the measurement's unit"),
		"clear":     number("default: a little back from threshold"),
		"window":    str("such as 3h"),
		"for":       str("hold before firing, such as 15m"),
		"clear_for": str("hold before clearing"),
		"name":      {Type: "string"},
	}, "zone", "kind", "threshold")
}

// readOnlyAlerts is what list_alerts adds where the rules cannot be
// changed (climated mcp reading the database beside the hub).
const readOnlyAlerts = " This server reads the hub's database and cannot change rules: to create or delete one, " +
	"connect to the hub itself (its HTTP endpoint, or climated mcp --remote URL)."

// addAlertTools adds list_alerts and, when the alerts can be changed,
// create_alert and delete_alert.
func (s *Server) addAlertTools() {
	edit, _ := s.opts.Alerts.(AlertEditor)
	listDesc := "Alert rules (house rules on, then the user's) with ids and in words, and the alerts on now " +
		"(firing or clearing)."
	if edit == nil {
		listDesc += readOnlyAlerts
	}
	sdk.AddTool(s.mcp, &sdk.Tool{
		Name:         ToolListAlerts,
		Title:        "Alerts",
		Description:  listDesc,
		OutputSchema: listAlertsOutputSchema,
		Annotations:  readOnly(),
	}, s.listAlerts)
	if edit == nil {
		return
	}
	sdk.AddTool(s.mcp, &sdk.Tool{
		Name:  ToolCreateAlert,
		Title: "Create an alert",
		Description: "Watch a zone: it fires when the condition holds for 'for', clears back past clear. Read the " +
			"rule in words back to the user.",
		InputSchema:  createAlertSchema(s.measuredNames()),
		OutputSchema: createAlertOutputSchema,
		Annotations:  &sdk.ToolAnnotations{OpenWorldHint: new(bool)},
	}, func(ctx context.Context, req *sdk.CallToolRequest, a createAlertArgs) (*sdk.CallToolResult, any, error) {
		return s.createAlert(ctx, edit, req, a)
	})
	sdk.AddTool(s.mcp, &sdk.Tool{
		Name:        ToolDeleteAlert,
		Title:       "Delete an alert rule",
		Description: "Delete a user's alert rule by id (list_alerts); house rules are turned off in the configuration.",
		InputSchema: object(map[string]*jsonschema.Schema{"id": str("such as u3")}, "id"),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: new(true), IdempotentHint: true, OpenWorldHint: new(bool)},
	}, func(ctx context.Context, _ *sdk.CallToolRequest, a deleteAlertArgs) (*sdk.CallToolResult, any, error) {
		if err := edit.Delete(ctx, a.ID); err != nil {
			return nil, nil, s.alertErr("delete_alert", err)
		}
		// An active alert of the rule ends without an event.
		s.mcp.ResourceUpdated(ctx, &sdk.ResourceUpdatedNotificationParams{URI: URIAlertsActive})
		return textResult("deleted rule " + a.ID)
	})
}

func (s *Server) listAlerts(ctx context.Context, _ *sdk.CallToolRequest, _ listAlertsArgs) (*sdk.CallToolResult, any, error) {
	all, err := s.opts.Alerts.Rules(ctx)
	if err != nil {
		return nil, nil, s.alertReadErr(err)
	}
	active, err := s.active(ctx)
	if err != nil {
		return nil, nil, err
	}
	rules := []ruleView{}
	for _, r := range all {
		rules = append(rules, viewRule(r))
	}
	return jsonToolResult(map[string]any{"rules": rules, "active": active})
}

func textResult(text string) (*sdk.CallToolResult, any, error) {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, nil, nil
}

// createAlert checks the rule, asks the user to confirm it in words where
// the client can elicit (as an input request: the go-sdk elicits from
// clients of older protocols and calls again with the answer), then keeps it.
func (s *Server) createAlert(ctx context.Context, edit AlertEditor, req *sdk.CallToolRequest, a createAlertArgs) (*sdk.CallToolResult, any, error) {
	r, err := a.rule()
	if err != nil {
		return nil, nil, err
	}
	if err := r.Validate(edit.Zones()); err != nil {
		return nil, nil, err
	}
	if answer, ok := req.Params.InputResponses[confirmInput]; ok {
		res, _ := answer.(*sdk.ElicitResult)
		if res == nil || res.Action != "accept" {
			return textResult("not created: the user did not confirm " + r.Describe())
		}
	} else if caps := req.ClientCapabilities(); caps != nil && caps.Elicitation != nil {
		return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{confirmInput: &sdk.ElicitParams{
			Message:         "Create this alert? " + r.Describe(),
			RequestedSchema: object(map[string]*jsonschema.Schema{}),
		}}}, nil, nil
	}
	kept, err := edit.Create(ctx, r)
	if err != nil {
		return nil, nil, s.alertErr("create_alert", err)
	}
	return jsonToolResult(map[string]any{"id": kept.ID, "text": kept.Describe(), "rule": viewRule(kept)})
}

// rule turns the arguments into a rule; durations that do not parse are
// errors naming the argument.
func (a createAlertArgs) rule() (alerts.Rule, error) {
	r := alerts.Rule{Zone: a.Zone, Measurement: sensors.Measurement(a.Measurement), Kind: alerts.Kind(strings.ToLower(a.Kind)),
		Threshold: a.Threshold, Clear: a.Clear, Name: a.Name}
	for _, d := range []struct {
		name, text string
		to         *time.Duration
	}{{"window", a.Window, &r.Window}, {"for", a.For, &r.For}, {"clear_for", a.ClearFor, &r.ClearFor}} {
		if d.text == "" {
			continue
		}
		v, err := history.ParseDuration(d.text)
		if err != nil {
			return r, &alerts.InvalidError{Field: d.name, Msg: fmt.Sprintf("%q is not a duration: write one such as 15m, 3h, 1d", d.text)}
		}
		*d.to = v
	}
	return r, nil
}

// alertErr logs an error that may not be the caller's fault (the database
// failed; a house rule cannot be deleted) and returns err, which the
// tool's result carries.
func (s *Server) alertErr(tool string, err error) error {
	var inv *alerts.InvalidError
	if !errors.As(err, &inv) && !errors.Is(err, alerts.ErrTooManyRules) && !errors.Is(err, alerts.ErrNoRule) {
		s.log.Warn("mcp: alert rule not changed", "tool", tool, "err", err)
	}
	return err
}

// The alert tools' results: the keys of a rule (ruleView) and of an
// active alert are read in the result itself, whose text says each rule in
// words.
var listAlertsOutputSchema = keys("rules", "active")

var createAlertOutputSchema = keys("id", "text")
