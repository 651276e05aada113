package alerts_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/sensors"
)

func TestCreateBadInput(t *testing.T) {
	c := &clock{jan1}
	e := newEngine(t, c, none(), nil)
	ok := alerts.Rule{Kind: alerts.Above, Zone: "Bedroom", Measurement: sensors.CO2, Threshold: 1200}
	cases := []struct {
		name string
		edit func(*alerts.Rule)
		want []string
	}{
		{"unknown zone", func(r *alerts.Rule) { r.Zone = "Attic" }, []string{`unknown zone "Attic"`, "known zones: Balcony, Bedroom, Indoor, Rain"}},
		{"unknown measurement", func(r *alerts.Rule) { r.Measurement = "Radon" }, []string{`unknown measurement "Radon"`, "valid measurements: AbsolutePressure, CO2,", "wifi_status"}},
		{"a direction", func(r *alerts.Rule) { r.Measurement, r.Threshold = sensors.WindAngle, 300 }, []string{"WindAngle is a direction", "WindStrength, GustStrength"}},
		{"unknown kind", func(r *alerts.Rule) { r.Kind = "between" }, []string{`"between" is not a kind`, "above, below, rise, fall, stale, condensation"}},
		{"threshold out of range", func(r *alerts.Rule) { r.Threshold = 20000 }, []string{"20000 ppm is outside the range of CO2, 0…10000 ppm"}},
		{"temperature out of range", func(r *alerts.Rule) { r.Measurement, r.Threshold = sensors.Temperature, -100 }, []string{"-100 °C is outside the range of Temperature, -60…85 °C"}},
		{"zero window", func(r *alerts.Rule) { r.Kind, r.Measurement, r.Threshold = alerts.Fall, sensors.Pressure, 3 }, []string{"window: 0s; want more than 0"}},
		{"negative hold", func(r *alerts.Rule) { r.For = -time.Minute }, []string{"for: -1m0s"}},
		{"zero silence", func(r *alerts.Rule) { r.Kind, r.Measurement = alerts.Stale, "" }, []string{"for: 0s; a stale rule needs the silence"}},
		{"clear on the wrong side", func(r *alerts.Rule) { r.Clear = ptr(1300) }, []string{"clear: 1300 is on the wrong side of the threshold 1200"}},
		{"missing zone", func(r *alerts.Rule) { r.Zone = "" }, []string{"zone: missing; known zones: Balcony"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := ok
			tc.edit(&r)
			_, err := e.Create(context.Background(), r)
			var ie *alerts.InvalidError
			if !errors.As(err, &ie) {
				t.Fatalf("err %v, want an *InvalidError", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestTooManyRules(t *testing.T) {
	c := &clock{jan1}
	e := newEngine(t, c, nil, nil)
	for i := range alerts.MaxUserRules {
		if _, err := e.Create(context.Background(), alerts.Rule{Kind: alerts.Above, Zone: "Bedroom", Measurement: sensors.CO2, Threshold: float64(1000 + i)}); err != nil {
			t.Fatal(err)
		}
	}
	_, err := e.Create(context.Background(), alerts.Rule{Kind: alerts.Above, Zone: "Bedroom", Measurement: sensors.CO2, Threshold: 900})
	if !errors.Is(err, alerts.ErrTooManyRules) || !strings.Contains(err.Error(), "the limit is 100") {
		t.Errorf("err %v", err)
	}
	if err := e.Delete(context.Background(), "house.co2"); err == nil || !strings.Contains(err.Error(), "alerts: house: co2: enabled: false") {
		t.Errorf("deleting a house rule: %v", err)
	}
	if err := e.Delete(context.Background(), "u999"); !errors.Is(err, alerts.ErrNoRule) {
		t.Errorf("deleting an unknown rule: %v", err)
	}
}

func TestDescribe(t *testing.T) {
	cases := []struct {
		r    alerts.Rule
		want string
	}{
		{alerts.Rule{Kind: alerts.Above, Zone: "Bedroom", Measurement: sensors.CO2, Threshold: 1200, For: 15 * time.Minute},
			"Bedroom CO2 above 1200 ppm for 15 min (clears below 1100 ppm)"},
		{alerts.Rule{Kind: alerts.Below, Zone: "Balcony", Measurement: sensors.Temperature, Threshold: 2, Clear: ptr(3)},
			"Balcony Temperature below 2 °C (clears above 3 °C)"},
		{alerts.Rule{Kind: alerts.Fall, Zone: "Indoor", Measurement: sensors.Pressure, Threshold: 3, Window: 3 * time.Hour},
			"Indoor Pressure falling by 3 hPa or more within 3 h (clears once the change is under 1.5 hPa)"},
		{alerts.Rule{Kind: alerts.Stale, Zone: "Rain", For: 90 * time.Minute}, "Rain silent (no reading) for 1 h 30 min (clears with the next reading)"},
		{alerts.Rule{Kind: alerts.Above, Zone: "Bedroom", Measurement: sensors.RFStatus, Threshold: 85, ClearFor: time.Hour},
			"Bedroom radio signal (rf_status) weaker than 85 (clears stronger than 84 for 1 h)"},
	}
	for _, tc := range cases {
		if got := tc.r.Describe(); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}

// hover feeds values v[i] at minute i of zone's measurement m.
func hover(t *testing.T, e *alerts.Engine, c *clock, zone string, m sensors.Measurement, vs ...float64) []alerts.Event {
	t.Helper()
	var out []alerts.Event
	for i, v := range vs {
		c.t = jan1.Add(time.Duration(i) * time.Minute)
		evs, err := e.Observe(context.Background(), []sensors.Reading{{Zone: zone, Measurement: m, Value: v, Time: c.t, Source: "test"}})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, evs...)
	}
	return out
}

func types(evs []alerts.Event) string {
	var s []string
	for _, e := range evs {
		s = append(s, fmt.Sprintf("%s@%d", e.Type, e.Time.Sub(jan1)/time.Minute))
	}
	return strings.Join(s, " ")
}

// Hysteresis: a value hovering at the threshold fires once and clears only
// under the clear level; without it every crossing would fire.
func TestHysteresis(t *testing.T) {
	c := &clock{jan1}
	e := newEngine(t, c, none(), nil)
	if _, err := e.Create(context.Background(), alerts.Rule{Kind: alerts.Above, Zone: "Bedroom", Measurement: sensors.CO2, Threshold: 1200}); err != nil {
		t.Fatal(err)
	}
	evs := hover(t, e, c, "Bedroom", sensors.CO2, 1190, 1210, 1195, 1205, 1199, 1201, 1150, 1099, 1150, 1201)
	if got, want := types(evs), "fired@1 cleared@7 fired@9"; got != want {
		t.Errorf("events %s, want %s", got, want)
	}
}

// Hold and clear hold: pending resets when the value drops back; clearing
// returns to firing when it rises again before ClearFor.
func TestHoldAndClearHold(t *testing.T) {
	c := &clock{jan1}
	e := newEngine(t, c, none(), nil)
	_, err := e.Create(context.Background(), alerts.Rule{Kind: alerts.Below, Zone: "Balcony", Measurement: sensors.Temperature,
		Threshold: 2, Clear: ptr(3), For: 3 * time.Minute, ClearFor: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	//                                              0  1    2    3  4    5    6    7    8    9  10   11   12   13
	evs := hover(t, e, c, "Balcony", sensors.Temperature, 5, 1.9, 1.8, 2.5, 1.5, 1.5, 1.5, 1.5, 3.5, 2.5, 3.2, 3.3, 3.4, 3.4)
	if got, want := types(evs), "fired@7 cleared@12"; got != want {
		t.Errorf("events %s, want %s", got, want)
	}
	if evs[1].Text != "Balcony Temperature back above 3 °C after 5 min: 3.4 °C" {
		t.Errorf("text %q", evs[1].Text)
	}
}

// A rise rule on the demo's living room: the evening's CO2 from people and
// cooking rises 250 ppm or more within an hour.
func TestRiseOnDemo(t *testing.T) {
	c := &clock{jan1}
	e := newEngine(t, c, none(), nil)
	r, err := e.Create(context.Background(), alerts.Rule{Kind: alerts.Rise, Zone: "Indoor", Measurement: sensors.CO2, Threshold: 250, Window: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	evs := drive(t, e, c, house(), jan1.Add(12*time.Hour), jan1.Add(24*time.Hour), time.Minute, nil)
	if len(evs) < 2 || evs[0].Rule != r.ID || evs[0].Type != alerts.Fired || evs[1].Type != alerts.Cleared {
		t.Fatalf("events %+v", evs)
	}
	if h := evs[0].Time.Hour(); h < 17 || h > 20 {
		t.Errorf("fired at %v, want in the evening", evs[0].Time)
	}
}

// Events beyond the rate bound are counted, not emitted; states still move.
func TestEventRateBound(t *testing.T) {
	c := &clock{jan1}
	e, err := alerts.New(context.Background(), &alerts.Options{Zones: demoZones, House: none(), Now: c.now, MaxEventsPerSecond: 1, Burst: 2})
	if err != nil {
		t.Fatal(err)
	}
	var rs []sensors.Reading
	for i := range 5 {
		z := fmt.Sprintf("Room%d", i)
		rs = append(rs, sensors.Reading{Zone: z, Measurement: sensors.CO2, Value: 2000, Time: jan1, Source: "test"})
	}
	for i := range 5 {
		if _, err := e.Create(context.Background(), alerts.Rule{Kind: alerts.Above, Zone: "Bedroom", Measurement: sensors.CO2, Threshold: float64(1000 + i)}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range rs {
		rs[i].Zone = "Bedroom"
	}
	evs, err := e.Observe(context.Background(), rs[:1])
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 || e.Stats().Suppressed != 3 || len(e.Active()) != 5 {
		t.Errorf("%d events, %d suppressed, %d active; want 2, 3, 5", len(evs), e.Stats().Suppressed, len(e.Active()))
	}
}
