// The house view: get_climate's structure as the dashboard's cards (value,
// trend, min and max since midnight, rain sums, stale and fault badges,
// the alerts that are on, and a weather station's wind panel, feels-like
// line, leaks, UV and lightning as the dashboard has them, from the
// weather card's script it shares, internal/weathercard), with what the
// structure does not say (units, badges, alerts) from the result's _meta.
"use strict";
(function () {
  const W = window.climatedWeather;
  const DERIVED = new Set(["When", "min_temp", "max_temp", "date_min_temp", "date_max_temp", "temp_trend",
    "pressure_trend", "sum_rain_1", "sum_rain_24"].concat(W.DERIVED));
  const ARROWS = { up: "↑", down: "↓", stable: "→" };
  const app = document.getElementById("app");
  let meta = {};

  const unit = (key) => (meta.units || {})[key] || {};
  // fmt writes a value to its measurement's decimals; an amount (rain,
  // lightning) without the zeros they pad it with, as the dashboard writes
  // an amount's total: a dry hour is "0 mm", not "0.000 mm"; a tip 0.279.
  function fmt(key, v) {
    const u = unit(key);
    if (typeof v !== "number" || u.decimals === undefined) return String(v);
    return u.kind === "amount" ? String(+v.toFixed(u.decimals)) : v.toFixed(u.decimals);
  }
  const val = (key, v, as) => el("span", { "data-key": key, "data-value": String(v), text: fmt(as || key, v) });
  const hm = (t) => views.time.format(new Date(t * 1000));
  const clock = (key, t) => el("time", { "data-key": key, "data-value": String(t), text: hm(t) });
  function byOrder(a, b) {
    const o = meta.order || [], ia = o.indexOf(a), ib = o.indexOf(b);
    return (ia < 0 ? o.length : ia) - (ib < 0 ? o.length : ib) || (a < b ? -1 : a > b ? 1 : 0);
  }
  // value is one value of the card; text, when given, is shown instead of
  // the number and its unit (the wind's compass point).
  function value(zone, key, z, text) {
    const u = text ? "" : W.unit(key, unit(key).unit), trend = key === "Temperature" ? z.temp_trend : key === "Pressure" ? z.pressure_trend : undefined;
    const shown = text ? el("span", { class: "point", text: text }) : el("span", { "data-key": key, "data-value": String(z[key]), text: W.shown(key, z[key], fmt) });
    const num = el("span", { class: "num" }, shown, u ? el("span", { class: "unit", text: u }) : null,
      trend ? el("span", { class: "trend", "data-key": key === "Temperature" ? "temp_trend" : "pressure_trend", "data-value": trend, title: "trend: " + trend, text: ARROWS[trend] || "" }) : null);
    const sub = el("span", { class: "sub" });
    if (key === "Temperature" && "min_temp" in z) {
      sub.append("min ", val("min_temp", z.min_temp), " at ", clock("date_min_temp", z.date_min_temp),
        " · max ", val("max_temp", z.max_temp), " at ", clock("date_max_temp", z.date_max_temp));
    }
    if (key === "Rain" && "sum_rain_1" in z) sub.append("1 h ", val("sum_rain_1", z.sum_rain_1, key), " mm · 24 h ", val("sum_rain_24", z.sum_rain_24, key), " mm");
    W.sub(helpers, key, z, sub);
    return el("div", { class: "value" }, el("span", { class: "label", text: W.label(key) || views.label(key) }), num, sub);
  }
  const helpers = { el: el, fmt: fmt, clock: hm, value: value };
  function card(name, z) {
    const badge = (meta.zones || {})[name] || {}, id = "zone-" + name.replace(/[^A-Za-z0-9_-]/g, "_");
    const head = el("header", {}, el("h2", { id: id, text: name }),
      badge.stale ? el("span", { class: "badge stale", role: "status", text: "stale" }) : null,
      badge.fault ? el("span", { class: "badge fault", role: "status", title: badge.fault, text: "fault" }) : null);
    const keys = Object.keys(z).filter((k) => !DERIVED.has(k) && unit(k).kind !== "health").sort(byOrder);
    const vals = el("div", { class: "values" }, ...W.values(helpers, name, z, keys));
    const foot = el("footer");
    if ("battery_percent" in z) foot.append(el("span", {}, "battery ", val("battery_percent", z.battery_percent), " %"));
    if ("When" in z) foot.append(el("span", {}, "updated ", clock("When", z.When)));
    return el("article", { class: "card", "data-zone": name, "aria-labelledby": id }, head, vals, W.feels(helpers, z), foot);
  }
  function show(result) {
    if (!result || result.isError || !result.structuredContent) {
      views.show("error", views.text(result) || "The hub gave no climate.");
      return;
    }
    const house = result.structuredContent;
    meta = (result._meta && result._meta["climated/house"]) || {};
    const zones = Object.keys(house).sort();
    const head = el("header", {}, el("h1", { text: "The house now" }), meta.simulated ? el("span", { class: "badge demo", text: "simulated" }) : null);
    const parts = [head];
    if ((meta.alerts || []).length) {
      parts.push(el("ul", { class: "alerts", "aria-label": "alerts" }, ...meta.alerts.map((a) =>
        el("li", { "data-rule": a.rule, text: a.zone + ": " + a.text + " (since " + views.stamp.format(new Date(a.fired_at * 1000)) + ")" }))));
    }
    parts.push(zones.length ? el("div", { class: "cards" }, ...zones.map((n) => card(n, house[n])))
      : el("p", { class: "note", role: "status", text: "No zone has reported yet." }));
    app.replaceChildren(...parts);
    Object.assign(app.dataset, { state: zones.length ? "ready" : "empty", zones: String(zones.length) });
  }
  host.on["ui/notifications/tool-result"] = show;
  host.on["ui/notifications/tool-cancelled"] = () => views.show("cancelled", "The call was cancelled.");
  host.start("climated-house").catch((err) => views.show("error", "The host did not answer: " + err.message));
})();
