package alerts_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"

	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/sensors"
)

// badNames are names with a character that would change how an alert's
// text reads, and what the error must say of it.
var badNames = []struct {
	name string
	want []string
}{
	{"Bed\rroom", []string{"U+000D (CARRIAGE RETURN), a control character", "character 4 of"}},
	{"mould\nFAKE LOG LINE", []string{"U+000A (LINE FEED)", "character 6 of"}},
	{"nul\x00", []string{"U+0000 (NUL)", "character 4 of"}},
	{"CO2 \u202empp 0021", []string{"U+202E (RIGHT-TO-LEFT OVERRIDE), a format character", "character 5 of", `"CO2 \u202empp 0021"`}},
	{"\u2066isolated\u2069", []string{"U+2066 (LEFT-TO-RIGHT ISOLATE)", "character 1 of"}},
	{"ab\u200fc", []string{"U+200F (RIGHT-TO-LEFT MARK)", "character 3 of"}},
	{"ab\u200ec", []string{"U+200E (LEFT-TO-RIGHT MARK)"}},
	{"x\u202ay", []string{"U+202A (LEFT-TO-RIGHT EMBEDDING)"}},
	{"zero\u200bwidth", []string{"U+200B (ZERO WIDTH SPACE), a format character"}},
	{"line\u2028break", []string{"U+2028 (LINE SEPARATOR), a line break"}},
	{"esc\x1b[31m", []string{"U+001B (ESCAPE)"}},
	{"\u0085", []string{"U+0085 (NEXT LINE)"}},
	{"über\xff", []string{"the byte 0xFF, not UTF-8", "character 5 of"}},
}

// goodNames hold letters of every script, emoji, symbols and spaces.
var goodNames = []string{"", "mould risk", "Schlafzimmer über 25 °C", "🌡️ too warm", "غرفة النوم", "寝室 CO₂", "a — b, «c»", "tab-free\u00a0nbsp"}

// checkNameErr checks that err is the name's *InvalidError saying what.
func checkNameErr(t *testing.T, where string, err error, want []string) {
	t.Helper()
	var ie *alerts.InvalidError
	if !errors.As(err, &ie) || ie.Field != "name" {
		t.Errorf("%s: err %v, want an *InvalidError of the name", where, err)
		return
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: error %q lacks %q", where, err, w)
		}
	}
}

// TestRuleNameCharacters: every way a user rule comes in (Validate, as
// create_alert calls it first; Engine.Create; DB.AddRule) refuses a name
// with a control or format character and says which and where; names in
// any script pass.
func TestRuleNameCharacters(t *testing.T) {
	c := &clock{jan1}
	db, _ := newDB(t, c)
	e := newEngine(t, c, none(), db)
	ok := alerts.Rule{Kind: alerts.Above, Zone: "Bedroom", Measurement: sensors.CO2, Threshold: 1200}
	for _, tc := range badNames {
		r := ok
		r.Name = tc.name
		checkNameErr(t, "Validate "+tc.name, r.Validate(e.Zones()), tc.want)
		_, err := e.Create(context.Background(), r)
		checkNameErr(t, "Create "+tc.name, err, tc.want)
		_, err = db.AddRule(context.Background(), r)
		checkNameErr(t, "AddRule "+tc.name, err, tc.want)
		house := alerts.Rule{ID: "house.co2", House: true, Scope: alerts.AnyZone, Kind: alerts.Above, Measurement: sensors.CO2, Threshold: 1400, Name: tc.name}
		checkNameErr(t, "house rule "+tc.name, house.Validate(nil), tc.want)
	}
	if rules, _ := db.Rules(context.Background()); len(rules) != 0 {
		t.Errorf("refused rules were kept: %+v", rules)
	}
	for _, name := range goodNames {
		r := ok
		r.Name = name
		kept, err := e.Create(context.Background(), r)
		if err != nil || kept.Name != name {
			t.Errorf("name %q: %+v, %v", name, kept, err)
		}
	}
}

// TestStoredNameEscaped: a name kept before names were checked is read
// back with the character escaped, so it reaches no alert's text.
func TestStoredNameEscaped(t *testing.T) {
	c := &clock{jan1}
	db, path := newDB(t, c)
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	spec := `{"name":"Bed\u202eroom\r\nok","kind":"above","zone":"Bedroom","measurement":"CO2","threshold":1200}`
	if _, err := raw.Exec("INSERT INTO alert_rules (spec, created) VALUES (?, 0)", spec); err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, c, none(), db)
	evs, err := e.Observe(context.Background(), []sensors.Reading{{Zone: "Bedroom", Measurement: sensors.CO2, Value: 1300, Time: c.t, Source: "test"}})
	if err != nil || len(evs) != 1 {
		t.Fatalf("events %+v, %v", evs, err)
	}
	const want = `Bedroom CO2 above 1200 ppm: 1300 ppm (Bed\u202Eroom\u000D\u000Aok)`
	if evs[0].Text != want {
		t.Errorf("event text %q, want %q", evs[0].Text, want)
	}
	rules, err := db.Rules(context.Background())
	if err != nil || len(rules) != 1 || rules[0].Validate(e.Zones()) != nil {
		t.Errorf("rules read back %+v, %v: want one rule that validates", rules, err)
	}
}
