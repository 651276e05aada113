package dash_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// readable: what a card says means something to a person. A battery is
// its level (its voltage in volts beside it), a radio's or Wi-Fi's
// signal is in words, not on Netatmo's lower-is-better scale; an amount
// has no padding zeros ("0 mm", not "0.000 mm"); the day's extremes say
// they are since midnight; a trend arrow stays on its number's line.
func readable(t *testing.T, tb *tab, base string, v view) {
	v.apply(t, tb)
	tb.do(t, chromedp.Navigate(base+"/"))
	waitFor(t, tb, `document.querySelectorAll('.card').length === 4`, 30*time.Second)
	footers := eval[map[string]string](t, tb, `Object.fromEntries([...document.querySelectorAll('.card')].map(c => [c.dataset.zone, c.querySelector('footer').textContent]))`)
	battery := regexp.MustCompile(`battery \d+ % \(\d+(\.\d+)? V\)`)
	radio := regexp.MustCompile(`radio (strong|good|fair|weak|very weak)`)
	for _, zone := range []string{"Bedroom", "Balcony", "Rain"} {
		f := footers[zone]
		if strings.Contains(f, "mV") || !battery.MatchString(f) || !radio.MatchString(f) {
			t.Errorf("%s on the %s: footer %q, want the battery's level and volts and the radio in words", zone, v.name, f)
		}
	}
	if f := footers["Indoor"]; !regexp.MustCompile(`Wi-Fi (strong|fair|weak|very weak)`).MatchString(f) {
		t.Errorf("Indoor on the %s: footer %q, want the Wi-Fi in words", v.name, f)
	}
	amounts := eval[[]string](t, tb, `[...document.querySelectorAll('.card [data-key=Rain], .card [data-key=sum_rain_1], .card [data-key=sum_rain_24]')].map(e => e.textContent)`)
	padded := regexp.MustCompile(`\.\d*0$`)
	for _, a := range amounts {
		if padded.MatchString(a) {
			t.Errorf("an amount on the %s shows %q, padded with zeros", v.name, a)
		}
	}
	if len(amounts) < 3 {
		t.Errorf("%d rain amounts on the %s, want the value and its sums", len(amounts), v.name)
	}
	if sub := eval[string](t, tb, `document.querySelector('.card[data-zone="Balcony"] [data-key=min_temp]').closest('.sub').textContent`); !strings.HasPrefix(sub, "since midnight: min ") {
		t.Errorf("the day's extremes on the %s read %q, not since midnight", v.name, sub)
	}
	// [number's line, arrow's line] as their vertical middles, px.
	lines := eval[[][]float64](t, tb, `[...document.querySelectorAll('.value .trend')].map(a => { const n = a.parentElement.firstElementChild.getBoundingClientRect(), r = a.getBoundingClientRect();
		return [(n.top + n.bottom) / 2, (r.top + r.bottom) / 2, n.height] })`)
	if len(lines) == 0 {
		t.Errorf("no trend arrow on the %s", v.name)
	}
	for _, l := range lines {
		if d := l[1] - l[0]; d > l[2]/2 || d < -l[2]/2 {
			t.Errorf("a trend arrow on the %s sits %.0f px off its number's line: it wrapped", v.name, d)
		}
	}
	tb.check(t)
}
