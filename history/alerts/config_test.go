package alerts_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/sensors"
)

// The configuration embeds HouseConfig and is decoded over the defaults.
func TestHouseConfigYAML(t *testing.T) {
	var cfg struct {
		Alerts struct {
			House alerts.HouseConfig `yaml:"house"`
		} `yaml:"alerts"`
	}
	cfg.Alerts.House = alerts.DefaultHouse()
	src := `
alerts:
  house:
    outdoor: [Garden]
    co2: {threshold: 1200, for: 30m}
    battery: {enabled: false}
    mould: {clear: 60}
`
	if err := yaml.Unmarshal([]byte(src), &cfg); err != nil {
		t.Fatal(err)
	}
	rules, err := cfg.Alerts.House.Rules()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rules {
		got = append(got, r.ID+": "+r.Describe())
	}
	want := []string{
		"house.mould: mould risk: any indoor zone: Humidity above 70 % for 6 h (clears below 60 %)",
		"house.condensation: condensation risk: any indoor zone: dew point within 1 °C of an outside wall's inner surface (estimated, fRsi 0.7) for 1 h (clears at a margin over 2 °C)",
		"house.co2: stuffy air: any zone: CO2 above 1200 ppm for 30 min (clears below 1100 ppm)",
		"house.frost: frost: any outdoor zone: Temperature below 0 °C for 10 min (clears above 1.5 °C)",
		"house.storm: storm warning: any zone: Pressure falling by 3.6 hPa or more within 3 h (clears once the change is under 1.8 hPa)",
		"house.silent: silent sensor: any zone: silent (no reading) for 1 h (clears with the next reading)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rules\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	h := cfg.Alerts.House
	h.CO2.Threshold = 20000
	if _, err := h.Rules(); err == nil || !strings.Contains(err.Error(), "alerts.house.co2: rule: threshold: 20000 ppm is outside the range of CO2, 0…10000 ppm") {
		t.Errorf("err %v", err)
	}
	h = alerts.DefaultHouse()
	h.Storm.Window = 0
	if _, err := h.Rules(); err == nil || !strings.Contains(err.Error(), "alerts.house.storm: rule: window: 0s") {
		t.Errorf("err %v", err)
	}
}

// A health rule on the radio signal: the demo's Balcony module reads
// 64…72 on Netatmo's scale (lower is better).
func TestWeakSignal(t *testing.T) {
	c := &clock{jan1}
	e := newEngine(t, c, none(), nil)
	r, err := e.Create(context.Background(), alerts.Rule{Kind: alerts.Above, Zone: "Balcony", Measurement: sensors.RFStatus, Threshold: 60})
	if err != nil {
		t.Fatal(err)
	}
	if r.Describe() != "Balcony radio signal (rf_status) weaker than 60 (clears stronger than 59)" {
		t.Errorf("describe %q", r.Describe())
	}
	evs := drive(t, e, c, house(), jan1, jan1.Add(time.Minute), time.Minute, nil)
	if len(evs) != 1 || !strings.HasPrefix(evs[0].Text, "Balcony radio signal (rf_status) weaker than 60: ") {
		t.Errorf("events %+v", evs)
	}
}

// The engine is used from the ingest path and from MCP tools at once.
func TestConcurrentUse(t *testing.T) {
	c := &clock{jan1}
	db, _ := newDB(t, c)
	e := newEngine(t, c, nil, db)
	h := house()
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range 200 {
			if _, err := e.Observe(context.Background(), h.At(jan1.Add(time.Duration(i)*time.Minute))); err != nil {
				t.Error(err)
				return
			}
		}
	})
	wg.Go(func() {
		for i := range 20 {
			r, err := e.Create(context.Background(), alerts.Rule{Kind: alerts.Above, Zone: "Bedroom", Measurement: sensors.CO2, Threshold: float64(400 + i)})
			if err != nil {
				t.Error(err)
				return
			}
			_ = e.Active()
			_ = e.Rules()
			if i%2 == 0 {
				if err := e.Delete(context.Background(), r.ID); err != nil {
					t.Error(err)
				}
			}
		}
	})
	wg.Wait()
	if n := len(e.Rules()); n != 7+10 {
		t.Errorf("%d rules, want 7 house and 10 user", n)
	}
}

func TestHouseValidateOutdoor(t *testing.T) {
	h := alerts.DefaultHouse()
	h.Outdoor = []string{"Gardn"}
	err := h.Validate(demoZones)
	if err == nil || err.Error() != `alerts.house.outdoor: unknown zone "Gardn"; known zones: Indoor, Bedroom, Balcony, Rain` {
		t.Errorf("err %v", err)
	}
}

// A source's backfill (readings of the past day at start-up) fills the
// windows but announces nothing; the next live reading is judged.
func TestBackfillIsNotAnnounced(t *testing.T) {
	now := jan1.Add(8 * time.Hour)
	c := &clock{now}
	e := newEngine(t, c, only("co2", nil), nil)
	h := house()
	var evs []alerts.Event
	for at := jan1; at.Before(now); at = at.Add(time.Minute) {
		got, err := e.Observe(context.Background(), h.At(at))
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, got...)
	}
	if len(evs) != 0 || e.Stats().Old == 0 {
		t.Errorf("backfill announced %+v (old %d)", evs, e.Stats().Old)
	}
}
