package dash_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/sensors"
)

// houseRules is an alert engine with the house rules as they are without
// configuration, for the lines the dashboard marks values past.
func houseRules(t *testing.T, zones ...string) *alerts.Engine {
	t.Helper()
	e, err := alerts.New(context.Background(), &alerts.Options{Zones: zones})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// catalogueOrder: a card lists its values as the catalogue does
// (temperature, humidity, CO2 …, particles by size), not alphabetically.
func catalogueOrder(t *testing.T, tb *tab) {
	got := eval[[]string](t, tb, `[...document.querySelectorAll('.card[data-zone="Indoor"] .value .num > [data-key]:first-child')].map(e => e.dataset.key)`)
	var want []string
	for _, info := range sensors.Catalogue() {
		if slices.Contains(got, string(info.Name)) {
			want = append(want, string(info.Name))
		}
	}
	if len(got) < 10 || !slices.Equal(got, want) {
		t.Errorf("Indoor's values in the order %v, want the catalogue's %v", got, want)
	}
}

// notStretched: each card is as tall as what it holds, not as its row's
// tallest (the demo's Balcony holds two values, Indoor thirteen).
func notStretched(t *testing.T, tb *tab) {
	// [zone, top, height, empty space under the footer]
	rows := eval[[][]any](t, tb, `[...document.querySelectorAll('.card')].map(c => { const r = c.getBoundingClientRect(), f = c.querySelector('footer').getBoundingClientRect();
		return [c.dataset.zone, Math.round(r.top), Math.round(r.height), Math.round(r.bottom - f.bottom)] })`)
	heights := map[float64]bool{}
	for _, r := range rows {
		heights[r[2].(float64)] = true
		if empty := r[3].(float64); empty > 20 { // the card's padding and border: 16 px
			t.Errorf("card %s: %v px empty under its footer (stretched to its row)", r[0], empty)
		}
	}
	if len(heights) < 2 {
		t.Errorf("every card equally tall: %v", rows)
	}
}

// opensChart: every value shows that it opens a chart (a chart icon).
func opensChart(t *testing.T, tb *tab) {
	missing := eval[[]string](t, tb, `[...document.querySelectorAll('.card .value')].filter(v => { const i = v.querySelector('svg.icon'); return !i || i.getBoundingClientRect().width < 8 || getComputedStyle(v).cursor !== 'pointer' }).map(v => v.textContent)`)
	if len(missing) > 0 {
		t.Errorf("values without a sign that they open a chart: %q", missing)
	}
}

// thresholdCue: a value past an alert rule's line (the house CO2 rule's
// 1400 ppm) is marked, with the rule; one under it, or past a line of a
// rule that does not apply in the zone (mould indoors only), is not.
func thresholdCue(t *testing.T, tb *tab, store *hub.Hub, feed *feeder) {
	feed.pause(true)
	defer feed.pause(false)
	now := time.Now()
	rs := []sensors.Reading{
		{Zone: "Bedroom", Measurement: sensors.CO2, Value: 1500, Time: now, Source: "test"},
		{Zone: "Indoor", Measurement: sensors.CO2, Value: 650, Time: now, Source: "test"},
		{Zone: "Balcony", Measurement: sensors.Humidity, Value: 95, Time: now, Source: "test"},
	}
	if err := store.Record(context.Background(), sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
	co2 := `.card[data-zone="Bedroom"] .value:has([data-key="CO2"])`
	waitFor(t, tb, `(v => v && v.querySelector('[data-key="CO2"]').textContent === '1500' && v.classList.contains('past'))(document.querySelector('`+co2+`'))`, 10*time.Second)
	if flag := eval[string](t, tb, `document.querySelector('`+co2+` .flag[data-rule="house.co2"]').textContent`); !strings.Contains(flag, "1400") {
		t.Errorf("the mark says %q, want the rule's 1400 ppm", flag)
	}
	if title := eval[string](t, tb, `document.querySelector('`+co2+`').title`); !strings.Contains(title, "stuffy air") {
		t.Errorf("the marked value's title %q does not name the rule", title)
	}
	waitFor(t, tb, `document.querySelector('.card[data-zone="Balcony"] [data-key="Humidity"]').textContent === '95'`, 10*time.Second)
	past := eval[[]string](t, tb, `[...document.querySelectorAll('.value.past [data-key]')].map(e => e.closest('.card').dataset.zone + '/' + e.dataset.key).filter((k, i, a) => a.indexOf(k) === i)`)
	if !slices.Equal(past, []string{"Bedroom/CO2"}) {
		t.Errorf("values marked past a rule: %v, want only Bedroom/CO2", past)
	}
}
