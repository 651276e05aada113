// What a weather station adds to a zone's card (docs/stations.md): the
// wind as a compass with speed, gusts and the day's strongest gust; what
// the air feels like; leaks as words; UV's WHO category and lightning's
// sums. Shared by the dashboard and the MCP Apps house view
// (internal/weathercard), each of which builds its cards and hands over
// its helpers h: el(tag, attrs, ...kids), fmt(key, v) (a value's number
// to its catalogue's decimals), clock(t) (a Unix time as the local time
// of day) and value(zone, key, z, text) (a value's element, with a .num
// and a .sub; text, when given, in place of the number and its unit).
// Nothing here names a URL: the house view's document may hold none.
"use strict";
window.climatedWeather = (function () {
  const POINTS = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"];
  // The wind's keys, shown together in the wind panel; the derived keys
  // shown within other values rather than as values of their own.
  const WIND = new Set(["WindStrength", "GustStrength", "WindAngle", "GustAngle"]);
  const DERIVED = ["max_wind_str", "max_wind_angle", "date_max_wind_str", "sum_lightning_1", "sum_lightning_24",
    "feels_like", "heat_index", "wind_chill", "humidex", "dew_point"];
  const FEELS = [["feels_like", "feels like"], ["wind_chill", "wind chill"], ["heat_index", "heat index"], ["humidex", "humidex"], ["dew_point", "dew point"]];
  const UV = [[3, "low"], [6, "moderate"], [8, "high"], [11, "very high"]]; // WHO, below each bound
  const LABELS = { WindStrength: "Wind", GustStrength: "Gusts", WindAngle: "Wind from", GustAngle: "Gusts from", SolarRadiation: "Solar radiation",
    UV: "UV index", RainRate: "Rain rate", SoilMoisture: "Soil moisture", LeafWetness: "Leaf wetness", LightningDistance: "Lightning distance" };

  // compass names a direction by the 16 points, each 22.5° wide: 350° is
  // N (348.75–11.25°), 200° SSW.
  function compass(deg) {
    return POINTS[Math.round((((deg % 360) + 360) % 360) / 22.5) % 16];
  }
  // dial is a compass rose with the wind as an arrow rotated by its angle:
  // its tail on the rim where the wind comes from (meteorology's
  // convention: WindAngle is where it blows from), its head where it goes.
  // Parsed as HTML, which puts an <svg> in SVG's namespace without naming
  // it (a namespace is a URL); deg is a number, so nothing else gets in.
  function dial(deg) {
    const a = String(+deg), t = document.createElement("template");
    t.innerHTML = '<svg class="dial" viewBox="-50 -76 100 126" aria-hidden="true"><circle class="rim" r="44"/>' +
      '<text class="north" y="-54" text-anchor="middle">N</text><g class="arrow" data-angle="' + a + '" transform="rotate(' + a + ')">' +
      '<line y1="-44" y2="26"/><path d="M -11 18 L 0 42 L 11 18 Z"/></g></svg>';
    return t.content.firstChild;
  }
  const num = (h, key, v, as) => h.el("span", { "data-key": key, "data-value": String(v), text: h.fmt(as || key, v) });
  const point = (h, key, deg) => [num(h, key, deg), "° " + compass(deg)];

  // wind is the panel of a zone with wind: direction, speed, gusts and the
  // day's strongest gust; null without wind.
  function wind(h, zone, z) {
    if (!("WindStrength" in z || "WindAngle" in z || "GustStrength" in z)) return null;
    const panel = h.el("section", { class: "wind", "aria-label": zone + ": wind" });
    if ("WindAngle" in z) {
      const b = h.value(zone, "WindAngle", z, compass(z.WindAngle));
      b.classList.add("compass");
      b.querySelector(".num").prepend(dial(z.WindAngle));
      b.querySelector(".sub").append(num(h, "WindAngle", z.WindAngle), "° · blowing to " + compass(z.WindAngle + 180));
      panel.append(b);
    }
    if ("WindStrength" in z) panel.append(h.value(zone, "WindStrength", z));
    if ("GustStrength" in z) panel.append(gust(h, zone, z));
    return panel;
  }
  function gust(h, zone, z) {
    const b = h.value(zone, "GustStrength", z), sub = b.querySelector(".sub");
    if ("GustAngle" in z) sub.append("from ", ...point(h, "GustAngle", z.GustAngle), h.el("br"));
    if ("max_wind_str" in z) {
      sub.append("max ", num(h, "max_wind_str", z.max_wind_str, "GustStrength"),
        " km/h at ", h.el("time", { "data-key": "date_max_wind_str", "data-value": String(z.date_max_wind_str), text: h.clock(z.date_max_wind_str) }));
      if ("max_wind_angle" in z) sub.append(", from ", ...point(h, "max_wind_angle", z.max_wind_angle));
    }
    return b;
  }
  // values are a card's values for keys (in the catalogue's order, the
  // derived ones left out): each as h.value makes it, but the wind's
  // together in one panel, in the place of the first of them.
  function values(h, zone, z, keys) {
    let panel = wind(h, zone, z);
    const out = [];
    for (const key of keys) {
      if (!WIND.has(key)) out.push(h.value(zone, key, z));
      else if (panel) { out.push(panel); panel = null; }
    }
    return out;
  }
  // feels is the line of what the air feels like, where the hub derives it.
  function feels(h, z) {
    const have = FEELS.filter(([k]) => k in z);
    if (!have.length) return null;
    const p = h.el("p", { class: "feels" });
    have.forEach(([k, words], i) => {
      if (i) p.append(" · ");
      p.append(h.el("span", { class: "item" }, words + " ", num(h, k, z[k], "Temperature"), " °C"));
    });
    return p;
  }
  // sub adds what a value says besides its number: UV's category,
  // lightning's sums; false where it has nothing to add.
  function sub(h, key, z, s) {
    if (key === "UV") {
      const cat = UV.find(([lim]) => Math.round(z.UV) < lim);
      s.append("WHO: " + (cat ? cat[1] : "extreme"));
      return true;
    }
    if (key === "Lightning" && "sum_lightning_1" in z) {
      s.append("1 h ", num(h, "sum_lightning_1", z.sum_lightning_1, key), " · 24 h ", num(h, "sum_lightning_24", z.sum_lightning_24, key));
      return true;
    }
    return false;
  }
  // scale lays out a chart's y axis: a direction on the compass, a leak
  // sensor as dry or water; null for the others.
  function scale(kind, key) {
    if (kind === "direction") return { range: [0, 360], splits: [0, 90, 180, 270, 360], values: compass };
    if (key === "Leak") return { range: [0, 1], splits: [0, 1], values: (v) => shown(key, v) };
    return null;
  }
  // shown is a value as the card writes it: a leak sensor's 0 and 1 as words.
  const shown = (key, v, fmt) => (key === "Leak" && typeof v === "number" ? (v ? "water!" : "dry") : fmt(key, v));
  // unit is the unit a value is written with, where the catalogue's is a
  // bare count.
  const unit = (key, u) => (key === "Lightning" ? "strikes" : u || "");

  return { compass: compass, scale: scale, values: values, feels: feels, sub: sub, shown: shown, unit: unit,
    label: (key) => LABELS[key], DERIVED: DERIVED };
})();
