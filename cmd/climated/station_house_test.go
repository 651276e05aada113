package main

import (
	"context"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// compassPoints are the 16 points, from N, each 22.5° wide.
var compassPoints = strings.Fields("N NNE NE ENE E ESE SE SSE S SSW SW WSW W WNW NW NNW")

// houseWindJS reads the Garden's wind panel in the house view: its
// compass point, the arrow's rotation, the speeds' units, the strongest
// gust's time with the view's time zone, and any part of the card past
// the view's right edge.
const houseWindJS = `(c => {
	const w = c.querySelector("section.wind"), m = w.querySelector(".dial .arrow").transform.baseVal.consolidate().matrix;
	const unit = (k) => { const e = w.querySelector('.num [data-key="' + k + '"]'); return e ? (e.closest(".num").querySelector(".unit") || {}).textContent || "" : "no " + k; };
	const t = w.querySelector('time[data-key="date_max_wind_str"]');
	return {point: w.querySelector(".compass .point").textContent, angle: String(Math.atan2(m.b, m.a) * 180 / Math.PI),
		speedUnit: unit("WindStrength"), gustUnit: unit("GustStrength"), maxText: t.closest(".sub").textContent,
		gustTime: t.textContent, gustStamp: t.dataset.value, zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
		arrow: getComputedStyle(w.querySelector(".dial .arrow line")).stroke, bg: getComputedStyle(document.body).backgroundColor,
		past: [...c.querySelectorAll("*")].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5).map((e) => e.tagName + "." + (e.getAttribute("class") || "")).join(" ")};
})(document.querySelector('.card[data-zone="Garden"]'))`

// houseWind: the Garden's card in the house view v has the wind as the
// dashboard shows it, the compass point naming where api's WindAngle
// comes from, the arrow turned by it, speed and gusts in km/h, the
// strongest gust at a time of day in the view's time zone, and nothing
// past the view's right edge. It returns what it read.
func houseWind(t *testing.T, v context.Context, api map[string]string) map[string]string {
	t.Helper()
	got := eval[map[string]string](t, v, houseWindJS)
	deg, err := strconv.ParseFloat(api["WindAngle"], 64)
	if err != nil {
		t.Fatalf("/api/climate's WindAngle %q: %v", api["WindAngle"], err)
	}
	if want := compassPoints[int(math.Round(deg/22.5))%16]; got["point"] != want {
		t.Errorf("the wind from %v°: the compass says %q, want %s", deg, got["point"], want)
	}
	if angle, _ := strconv.ParseFloat(got["angle"], 64); math.Abs(math.Mod(angle+360, 360)-deg) > 0.5 {
		t.Errorf("the wind from %v°: the arrow is turned by %s°", deg, got["angle"])
	}
	if got["speedUnit"] != "km/h" || got["gustUnit"] != "km/h" {
		t.Errorf("wind in %q, gusts in %q, want km/h", got["speedUnit"], got["gustUnit"])
	}
	if !strings.Contains(got["maxText"], " km/h at ") {
		t.Errorf("the strongest gust: %q, want its speed in km/h", got["maxText"])
	}
	if got["gustStamp"] != api["date_max_wind_str"] {
		t.Errorf("the strongest gust's time %q, /api/climate %q", got["gustStamp"], api["date_max_wind_str"])
	}
	if want := localClock(t, api["date_max_wind_str"], got["zone"]); !want.MatchString(got["gustTime"]) {
		t.Errorf("the strongest gust at %q, want the time of day %v in %s", got["gustTime"], want, got["zone"])
	}
	if got["past"] != "" {
		t.Errorf("past the view's right edge: %s", got["past"])
	}
	return got
}

// localClock matches the time of day of the Unix time stamp in the time
// zone named zone, as hours and minutes on a 24-hour or a 12-hour clock.
func localClock(t *testing.T, stamp, zone string) *regexp.Regexp {
	t.Helper()
	sec, err := strconv.ParseInt(stamp, 10, 64)
	if err != nil {
		t.Fatalf("time stamp %q: %v", stamp, err)
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatalf("the view's time zone %q: %v", zone, err)
	}
	at := time.Unix(sec, 0).In(loc)
	h12 := `[\s\x{a0}\x{202f}]?` + at.Format("PM")
	return regexp.MustCompile(`^(` + at.Format("15:04") + `|` + at.Format("03:04") + h12 + `|` + at.Format("3:04") + h12 + `)$`)
}

// houseLeaks: each leak sensor's zone in the house view says dry or
// water! as /api/climate's 0 or 1; there must be one of each.
func houseLeaks(t *testing.T, v context.Context, api map[string]map[string]string) {
	t.Helper()
	shown := eval[map[string]string](t, v, `Object.fromEntries([...document.querySelectorAll('.card [data-key="Leak"]')].map((e) => [e.closest(".card").dataset.zone, e.textContent]))`)
	seen := map[string]bool{}
	for zone, z := range api {
		if z["Leak"] == "" {
			continue
		}
		want := map[string]string{"0": "dry", "1": "water!"}[z["Leak"]]
		seen[want] = true
		if shown[zone] != want {
			t.Errorf("%s's leak sensor at %s: the card says %q, want %q", zone, z["Leak"], shown[zone], want)
		}
	}
	if !seen["dry"] || !seen["water!"] {
		t.Errorf("the uploads gave no dry and wet leak sensor to show: %v", shown)
	}
}
