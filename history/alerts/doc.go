// Package alerts watches the house: rules on any zone and measurement of
// the sensors catalogue, evaluated on every reading, and the house rules
// that are on by default. It is pure logic with no goroutine of its own:
// the hub feeds it readings (Engine.Observe, in the order they arrive),
// ticks it for the silence rules (Engine.Tick) and passes the events it
// returns to the assistant, MQTT and the webhook (package notify).
//
// # Rules
//
// A rule is above or below a level, a rise or fall by an amount within a
// window (the least-squares change over the window, as the trend of the
// get_climate structure judges it; at least two points spanning half the
// window), a silence of a zone (stale), or a condensation risk. Health
// rules are rules on the health measurements: battery_percent below N,
// rf_status or wifi_status above N (on Netatmo's scales a higher number is
// a weaker signal; Describe says "weaker than").
//
// Each rule has a hold (For) before it fires and a clear level on the
// safe side of its threshold, so a value hovering at the threshold fires
// once (Rule.DefaultClear gives the default band), and optionally a hold
// before it clears (ClearFor). Per zone a rule is ok, pending (breached,
// holding), firing or clearing (recovered, holding); firing and clearing
// produce events with a text in words and the value.
//
// # House rules
//
// DefaultHouse gives them and why each is where it is: mould and
// condensation risk, CO2, frost, a storm warning from a fast pressure fall,
// a silent zone and a low battery. Each can be turned off and its
// thresholds changed in the configuration (HouseConfig, YAML).
//
// # Persistence and bounds
//
// DB keeps user rules, every state change and the event history in the
// history's SQLite file (its own part of the schema, migrations/), so a
// restart resumes holds and firings where they were. At most MaxUserRules
// user rules; DBOptions bounds the event history, Options the events
// emitted (a burst, then a rate) and the age of a reading still judged.
package alerts
