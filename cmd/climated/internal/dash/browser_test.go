package dash_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/climated/climated/cmd/climated/internal/dash"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/internal/testutil/chromium"
	"github.com/climated/climated/sensors"
)

const browserStaleAfter = 15 * time.Second

// TestBrowser drives Debian's chromium against a real server with a year of
// the demo house's history in SQLite: one browser, one tab per part.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a browser over a year of demo history")
	}
	bctx := chromium.Browser(t)
	start := time.Now()
	store, house := demoStore(t, 365*24*time.Hour)
	t.Logf("a year of demo history recorded in %s", time.Since(start).Round(time.Millisecond))
	feed := startFeeder(t, store, house)
	var active atomic.Pointer[[]dash.Alert]
	src := dash.StoreSource{Store: store, StaleAfter: browserStaleAfter, ActiveAlerts: func() []dash.Alert {
		if a := active.Load(); a != nil {
			return *a
		}
		return nil
	}, Levels: houseRules(t, "Balcony", "Bedroom", "Indoor", "Rain").Levels}
	base := serve(t, "127.0.0.1", newDash(t, src, &dash.Options{Simulated: true}))
	remoteBase := serve(t, "127.0.0.2", newDash(t, src, &dash.Options{Simulated: true, Token: testToken, IsLoopback: remote}))
	dir := artifacts(t)

	tb := newTab(t, bctx)
	tb.do(t, chromedp.Navigate(base+"/"))
	waitFor(t, tb, `document.querySelectorAll('.card').length === 4 && document.querySelector('section.chart[data-state=ready]') !== null`, 30*time.Second)
	t.Run("cards", func(t *testing.T) { cards(t, tb, base, feed) })
	t.Run("catalogueOrder", func(t *testing.T) { catalogueOrder(t, tb) })
	t.Run("notStretched", func(t *testing.T) { notStretched(t, tb) })
	t.Run("opensChart", func(t *testing.T) { opensChart(t, tb) })
	t.Run("thresholdCue", func(t *testing.T) { thresholdCue(t, tb, store, feed) })
	t.Run("charts", func(t *testing.T) { charts(t, tb) })
	t.Run("zoomAndCSV", func(t *testing.T) { zoomAndCSV(t, tb) })
	t.Run("keyboard", func(t *testing.T) { keyboard(t, tb) })
	t.Run("screenshots", func(t *testing.T) { screenshots(t, newTab(t, bctx), base, dir, store, feed) })
	t.Run("live", func(t *testing.T) { live(t, tb, store, feed) })
	t.Run("stale", func(t *testing.T) { stale(t, tb, feed) })
	t.Run("alerts", func(t *testing.T) { alertsShown(t, tb, &active) })
	t.Run("fault", func(t *testing.T) { faultShown(t, tb, store) })
	t.Run("reconnect", func(t *testing.T) { reconnect(t, newTab(t, bctx), src, store, feed) })
	tb.check(t)
	t.Run("offLoopback", func(t *testing.T) { offLoopback(t, newTab(t, bctx), base, remoteBase) })
	t.Run("figures", func(t *testing.T) { figures(t, bctx, base, dir) })
}

// cards: every key of the structure is on the page with its exact value.
func cards(t *testing.T, tb *tab, base string, feed *feeder) {
	feed.pause(true)
	defer feed.pause(false)
	if hidden := eval[bool](t, tb, `document.getElementById('demo').hidden`); hidden {
		t.Error("the simulated-data banner is hidden for the demo house")
	}
	if n := eval[int](t, tb, `document.querySelectorAll('.badge.stale').length`); n != 0 {
		t.Errorf("%d stale badges while every zone is fresh", n)
	}
	var diffs []string
	for try := 0; try < 3; try++ {
		time.Sleep(1500 * time.Millisecond) // the last event of the feeder lands
		dom := eval[map[string]map[string][2]string](t, tb, `Object.fromEntries([...document.querySelectorAll('.card')].map(c =>
			[c.dataset.zone, Object.fromEntries([...c.querySelectorAll('[data-key]')].map(e => [e.dataset.key, [e.dataset.value, e.textContent]]))]))`)
		if diffs = compareCards(t, fetchClimate(t, base), dom); len(diffs) == 0 {
			return
		}
	}
	for _, d := range diffs {
		t.Error(d)
	}
}

func fetchClimate(t *testing.T, base string) map[string]map[string]json.RawMessage {
	t.Helper()
	res, err := http.Get(base + "/dash/state")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var st struct {
		Climate map[string]map[string]json.RawMessage `json:"climate"`
	}
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st.Climate
}

// compareCards lists where the page differs from the structure: each value
// as data-value, and the shown number equal to it.
func compareCards(t *testing.T, climate map[string]map[string]json.RawMessage, dom map[string]map[string][2]string) []string {
	var diffs []string
	if len(climate) != len(dom) {
		diffs = append(diffs, fmt.Sprintf("%d cards for %d zones", len(dom), len(climate)))
	}
	for zone, keys := range climate {
		for key, raw := range keys {
			want := string(raw)
			if s, err := strconv.Unquote(want); err == nil {
				want = s
			}
			got, ok := dom[zone][key]
			switch {
			case !ok:
				diffs = append(diffs, fmt.Sprintf("%s/%s = %s is not on the page", zone, key, want))
			case got[0] != want:
				diffs = append(diffs, fmt.Sprintf("%s/%s: page has %q, structure %s", zone, key, got[0], want))
			case key == "When" || key == "date_min_temp" || key == "date_max_temp" || key == "date_max_wind_str" || key == "temp_trend" || key == "pressure_trend":
			case key == "battery_vp": // in volts
				v, err1 := strconv.ParseFloat(strings.TrimSuffix(got[1], " V"), 64)
				mV, err2 := strconv.ParseFloat(want, 64)
				if err1 != nil || err2 != nil || !strings.HasSuffix(got[1], " V") || math.Abs(v*1000-mV) > 5 {
					diffs = append(diffs, fmt.Sprintf("%s/%s shows %q, structure %s mV (want volts)", zone, key, got[1], want))
				}
			case key == "rf_status" || key == "wifi_status": // in words
				v, _ := strconv.ParseFloat(want, 64)
				if words := signalWords(key, v); got[1] != words {
					diffs = append(diffs, fmt.Sprintf("%s/%s shows %q, structure %s (want %q)", zone, key, got[1], want, words))
				}
			case key == "Leak": // a leak sensor's 0 and 1 in words
				if words := map[string]string{"0": "dry", "1": "water!"}[want]; got[1] != words {
					diffs = append(diffs, fmt.Sprintf("%s/%s shows %q, structure %s (want %q)", zone, key, got[1], want, words))
				}
			default:
				shown, err1 := strconv.ParseFloat(got[1], 64)
				value, err2 := strconv.ParseFloat(want, 64)
				if err1 != nil || err2 != nil || shown != value {
					diffs = append(diffs, fmt.Sprintf("%s/%s shows %q, structure %s", zone, key, got[1], want))
				}
			}
		}
	}
	return diffs
}

// signalWords is a signal on Netatmo's scales (lower is stronger) in
// words: radio 60 full, 70 high, 80 medium, 90 low; Wi-Fi 56 good, 71
// average, 86 bad (Netatmo's weather API, rf_status and wifi_status).
func signalWords(key string, v float64) string {
	type step struct {
		max  float64
		word string
	}
	steps := []step{{60, "strong"}, {70, "good"}, {80, "fair"}, {90, "weak"}}
	if key == "wifi_status" {
		steps = []step{{56, "strong"}, {71, "fair"}, {86, "weak"}}
	}
	for _, s := range steps {
		if v <= s.max {
			return s.word
		}
	}
	return "very weak"
}

const firstChart = `section.chart[data-zone="Balcony"][data-m="Temperature"]`

// charts: each range draws data, no more points than pixels, bands on
// coarse tiers, an axis over the range; rain as bars with its total; a
// hover read-out.
func charts(t *testing.T, tb *tab) {
	spans := map[string]time.Duration{"24h": 24 * time.Hour, "7d": 7 * 24 * time.Hour, "30d": 30 * 24 * time.Hour, "1y": 365 * 24 * time.Hour}
	for _, r := range []string{"7d", "30d", "1y", "24h"} {
		chooseRange(t, tb, r)
		checkAxis(t, tb, r, spans[r], spans[r]/100)
		got := eval[[]int](t, tb, `(c => [+c.dataset.points, c.querySelector('.plot').clientWidth, c.querySelectorAll('.u-legend .u-series').length, c.querySelectorAll('canvas').length])(document.querySelector('`+firstChart+`'))`)
		points, width, series, canvases := got[0], got[1], got[2], got[3]
		t.Logf("%s: %d points in %d px, %d series", r, points, width, series)
		if points < 10 || points > width || canvases != 1 {
			t.Errorf("%s: %d points for %d px, %d canvases", r, points, width, canvases)
		}
		if wantBand := r != "24h" && r != "7d"; wantBand != (series == 4) {
			t.Errorf("%s: %d series (time, mean, min, max with a band on coarse tiers)", r, series)
		}
	}
	// A click from the page itself: the cards are redrawn with every
	// reading, so a node found by one call may be gone at the next.
	eval[bool](t, tb, `(document.querySelector('.card[data-zone="Rain"] .value').click(), true)`)
	rain := `section.chart[data-zone="Rain"][data-m="Rain"]`
	waitFor(t, tb, `(c => c && c.dataset.state === 'ready')(document.querySelector('`+rain+`'))`, 20*time.Second)
	if s := eval[string](t, tb, `document.querySelector('`+rain+` .summary').textContent`); !regexpMatch(`total [0-9.]+ mm in 24 h`, s) {
		t.Errorf("rain summary %q, want its 24-h total", s)
	}
	hover(t, tb, firstChart)
}

// live: a reading recorded into the store shows on the open page, and the
// open 24-h chart grows, without a reload.
func live(t *testing.T, tb *tab, store storeRecorder, feed *feeder) {
	eval[bool](t, tb, `window.__notReloaded = true`)
	before := eval[int](t, tb, `+document.querySelector('`+firstChart+`').dataset.points`)
	feed.silence("Indoor")
	r := sensors.Reading{Zone: "Indoor", Measurement: sensors.Temperature, Value: 42.4, Time: time.Now(), Source: "test"}
	if err := store.Record(context.Background(), sensors.Batch{Readings: []sensors.Reading{r}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, tb, `document.querySelector('.card[data-zone="Indoor"] .value [data-key="Temperature"]').textContent === '42.4'`, 5*time.Second)
	waitFor(t, tb, `+document.querySelector('`+firstChart+`').dataset.points > `+strconv.Itoa(before), 5*time.Second)
	if !eval[bool](t, tb, `window.__notReloaded === true`) {
		t.Error("the page reloaded")
	}
}

type storeRecorder interface {
	Record(context.Context, sensors.Batch) error
}

// alertsShown: an alert that fires appears above the cards with the next
// event (the feeder's readings bring one), and goes when it clears.
func alertsShown(t *testing.T, tb *tab, active *atomic.Pointer[[]dash.Alert]) {
	if !eval[bool](t, tb, `document.getElementById('alerts').hidden`) {
		t.Error("the alerts banner shows with no alert on")
	}
	on := []dash.Alert{{Zone: "Bedroom", Rule: "house.co2", Text: "stuffy air: any zone: CO2 above 1400 ppm for 15 min", Since: time.Now().Unix(), Value: 1450}}
	active.Store(&on)
	waitFor(t, tb, `!document.getElementById('alerts').hidden && document.querySelector('#alerts li[data-rule="house.co2"]').textContent.startsWith('Bedroom: stuffy air')`, 15*time.Second)
	active.Store(nil)
	waitFor(t, tb, `document.getElementById('alerts').hidden`, 15*time.Second)
}

// reconnect: when the stream is cut (the hub restarts, the Wi-Fi drops),
// the page says so, connects again by itself and goes on showing new
// readings without a reload.
func reconnect(t *testing.T, tb *tab, src dash.Source, store storeRecorder, feed *feeder) {
	base, drop := serveDroppable(t, "127.0.0.1", newDash(t, src, &dash.Options{Simulated: true}))
	tb.do(t, chromedp.Navigate(base+"/"))
	waitFor(t, tb, `document.getElementById('live').textContent === 'live'`, 15*time.Second)
	eval[bool](t, tb, `window.__notReloaded = true`)
	drop()
	feed.silence("Indoor")
	r := sensors.Reading{Zone: "Indoor", Measurement: sensors.Temperature, Value: 43.1, Time: time.Now(), Source: "test"}
	if err := store.Record(context.Background(), sensors.Batch{Readings: []sensors.Reading{r}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, tb, `document.querySelector('.card[data-zone="Indoor"] .value [data-key="Temperature"]').textContent === '43.1' && document.getElementById('live').textContent === 'live'`, 20*time.Second)
	if !eval[bool](t, tb, `window.__notReloaded === true`) {
		t.Error("the page reloaded")
	}
}

// faultShown: a source's error shows as a fault badge on the zones it
// feeds, with the error as its title, and goes once it reads again.
func faultShown(t *testing.T, tb *tab, store *hub.Hub) {
	failing := sensors.Status{Source: "i2c1/0x44 sht3x", Zones: []string{"Bedroom"}, Err: errors.New("read: i2c: no ACK"), ErrTime: time.Now()}
	store.Report(failing)
	waitFor(t, tb, `(() => { const b = document.querySelector('.card[data-zone="Bedroom"] .badge.fault'); return b !== null && b.title.includes('no ACK'); })()`, 15*time.Second)
	if n := eval[int](t, tb, `document.querySelectorAll('.card[data-zone="Indoor"] .badge.fault').length`); n != 0 {
		t.Errorf("%d fault badges on Indoor, which the failing source does not feed", n)
	}
	failing.Err = nil
	store.Report(failing)
	waitFor(t, tb, `document.querySelector('.card[data-zone="Bedroom"] .badge.fault') === null`, 15*time.Second)
}

// stale: a zone that falls silent gets its badge without a reload.
func stale(t *testing.T, tb *tab, feed *feeder) {
	feed.silence("Balcony")
	waitFor(t, tb, `document.querySelector('.card[data-zone="Balcony"] .badge.stale') !== null`, browserStaleAfter+15*time.Second)
	if n := eval[int](t, tb, `document.querySelectorAll('.card[data-zone="Bedroom"] .badge.stale').length`); n != 0 {
		t.Error("Bedroom, still fed, shows a stale badge")
	}
}

func readAll(t *testing.T, res *http.Response) string {
	t.Helper()
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b)
}

func writeArtifact(t *testing.T, dir, name string, data []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func regexpMatch(re, s string) bool { return regexp.MustCompile(re).MatchString(s) }
