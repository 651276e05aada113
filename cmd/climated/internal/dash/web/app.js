// climated dashboard: cards from /dash/state, live from /dash/events,
// charts of /dash/history with uPlot. No framework, nothing from elsewhere.
"use strict";
(function () {
  const RANGES = ["24h", "7d", "30d", "1y"];
  const LABELS = { "24h": "24 h", "7d": "7 days", "30d": "30 days", "1y": "1 year" };
  const DAY = 86400, SPANS = { "24h": DAY, "7d": 7 * DAY, "30d": 30 * DAY, "1y": 365 * DAY };
  // A range with fewer points than MIN_POINTS, or whose readings cover less
  // than MIN_COVER of it, is too little to draw: a year's chart of a day's
  // history would be a point or two.
  const MIN_POINTS = 5, MIN_COVER = 0.02;
  const W = window.climatedWeather; // weather.js (internal/weathercard): wind, feels like, leaks, UV, lightning
  const DERIVED = new Set(["When", "min_temp", "max_temp", "date_min_temp", "date_max_temp", "temp_trend",
    "pressure_trend", "sum_rain_1", "sum_rain_24"].concat(W.DERIVED));
  const ARROWS = { up: "↑", down: "↓", stable: "→" };
  let units = {}, order = [], thresholds = [], last = null, skew = 0;
  const charts = new Map(); // "zone\u0000m" → chart

  const $ = (sel, root) => (root || document).querySelector(sel);
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") e.textContent = v; else if (v !== undefined && v !== null) e.setAttribute(k, v);
    }
    for (const k of kids) if (k) e.append(k);
    return e;
  }
  const now = () => Date.now() / 1000 + skew;

  // ---- times: one format everywhere, the browser's locale, 24 h where it
  // says so (then with two digits: 03:53).
  const h12 = /h1[12]/.test(new Intl.DateTimeFormat(undefined, { hour: "numeric" }).resolvedOptions().hourCycle || "");
  const HM = { hour: h12 ? "numeric" : "2-digit", minute: "2-digit" };
  const formats = {
    time: new Intl.DateTimeFormat(undefined, HM),
    stamp: new Intl.DateTimeFormat(undefined, Object.assign({ day: "numeric", month: "short" }, HM)),
    stampYear: new Intl.DateTimeFormat(undefined, Object.assign({ day: "numeric", month: "short", year: "numeric" }, HM)),
    day: new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short" }),
    month: new Intl.DateTimeFormat(undefined, { month: "short" }),
    monthYear: new Intl.DateTimeFormat(undefined, { month: "short", year: "numeric" }),
    year: new Intl.DateTimeFormat(undefined, { year: "numeric" }),
  };
  const date = (t) => new Date(t * 1000);
  const clock = (t) => formats.time.format(date(t));
  // stamp is a time with its day unless it is today, and the year unless it is this one.
  function stamp(t) {
    const d = date(t), today = date(now());
    if (d.toDateString() === today.toDateString()) return formats.time.format(d);
    return (d.getFullYear() === today.getFullYear() ? formats.stamp : formats.stampYear).format(d);
  }
  // ticks labels a time axis by its step: times (with the day where it
  // changes), days, months (with the year in January) or years.
  function ticks(splits, step) {
    return splits.map((t, i) => {
      const d = date(t), prev = i > 0 ? date(splits[i - 1]) : null;
      if (step >= 365 * DAY) return formats.year.format(d);
      if (step >= 28 * DAY) return (!prev || d.getMonth() === 0 ? formats.monthYear : formats.month).format(d);
      if (step >= DAY) return formats.day.format(d);
      return clock(t) + (!prev || prev.getDate() !== d.getDate() ? "\n" + formats.day.format(d) : "");
    });
  }
  // fmt writes v to its measurement's decimals; an amount (rain,
  // lightning) without the zeros they pad with: "0 mm", "0.4 mm".
  function fmt(key, v) {
    const u = units[key];
    if (typeof v !== "number" || !u) return String(v);
    return u.kind === "amount" ? String(+v.toFixed(u.decimals)) : v.toFixed(u.decimals);
  }
  function ago(t) {
    const s = Math.max(0, Math.round(now() - t));
    if (s < 90) return s + " s ago";
    if (s < 5400) return Math.round(s / 60) + " min ago";
    if (s < 172800) return Math.round(s / 3600) + " h ago";
    return Math.round(s / 86400) + " days ago";
  }
  // signal is a radio's or Wi-Fi's strength in words: Netatmo's scales
  // run the other way (lower is stronger; radio 60 full … 90 low, Wi-Fi
  // 56 good … 86 bad).
  function signal(key, v) {
    const steps = key === "wifi_status" ? [[56, "strong"], [71, "fair"], [86, "weak"]]
      : [[60, "strong"], [70, "good"], [80, "fair"], [90, "weak"]];
    for (const [lim, word] of steps) if (v <= lim) return word;
    return "very weak";
  }
  const volts = (mV) => +(mV / 1000).toFixed(2) + " V";
  const label = (key) => ({ AbsolutePressure: "Station pressure", CO2: "CO₂", PM25: "PM2.5", VOCIndex: "VOC index", NOxIndex: "NOx index" }[key] || W.label(key) || key);
  const unitOf = (key) => W.unit(key, (units[key] || {}).unit);

  // ---- cards
  // past is the alert rule whose line the value is past, if any: the
  // rules' own thresholds, served with the state.
  function past(zone, key, v) {
    if (typeof v !== "number") return undefined;
    return thresholds.find((th) => th.zone === zone && th.key === key && (th.above ? v > th.value : v < th.value));
  }
  // chartIcon is the small line chart that says a value opens its chart.
  function chartIcon() {
    const ns = "http://www.w3.org/2000/svg", svg = document.createElementNS(ns, "svg"), line = document.createElementNS(ns, "polyline");
    svg.setAttribute("class", "icon");
    svg.setAttribute("viewBox", "0 0 16 12");
    svg.setAttribute("aria-hidden", "true");
    line.setAttribute("points", "1,11 5,5 9,8 15,1");
    svg.append(line);
    return svg;
  }
  // valueButton is a value with its chart behind it; text, when given, is
  // shown instead of the number and its unit (a wind's compass point).
  function valueButton(zone, key, z, text) {
    const u = { unit: text ? "" : unitOf(key) }, rule = past(zone, key, z[key]);
    const trend = key === "Temperature" ? z.temp_trend : key === "Pressure" ? z.pressure_trend : undefined;
    const shown = text ? el("span", { class: "point", text: text })
      : el("span", { "data-key": key, "data-value": String(z[key]), text: W.shown(key, z[key], fmt) });
    const num = el("span", { class: "num" }, shown, u.unit ? el("span", { class: "unit", text: u.unit }) : null,
      trend ? el("span", { class: "trend", "data-key": key === "Temperature" ? "temp_trend" : "pressure_trend", "data-value": trend, title: "trend: " + trend, text: ARROWS[trend] || "" }) : null);
    const sub = el("span", { class: "sub" });
    if (key === "Temperature" && "min_temp" in z) {
      sub.append("since midnight: min ", el("span", { "data-key": "min_temp", "data-value": String(z.min_temp), text: fmt(key, z.min_temp) }),
        " at ", el("time", { "data-key": "date_min_temp", "data-value": String(z.date_min_temp), text: clock(z.date_min_temp) }),
        " · max ", el("span", { "data-key": "max_temp", "data-value": String(z.max_temp), text: fmt(key, z.max_temp) }),
        " at ", el("time", { "data-key": "date_max_temp", "data-value": String(z.date_max_temp), text: clock(z.date_max_temp) }));
    }
    if (key === "Rain" && "sum_rain_1" in z) {
      sub.append("1 h ", el("span", { "data-key": "sum_rain_1", "data-value": String(z.sum_rain_1), text: fmt("Rain", z.sum_rain_1) }),
        " mm · 24 h ", el("span", { "data-key": "sum_rain_24", "data-value": String(z.sum_rain_24), text: fmt("Rain", z.sum_rain_24) }), " mm");
    }
    W.sub(helpers, key, z, sub);
    if (rule) {
      sub.prepend(el("span", { class: "flag", "data-rule": rule.rule, text: (rule.above ? "above " : "below ") + fmt(key, rule.value) + (u.unit ? " " + u.unit : "") }));
    }
    const b = el("button", { class: rule ? "value past" : "value", type: "button", title: rule ? rule.text : undefined,
      "aria-label": label(key) + " " + (text || W.shown(key, z[key], fmt) + " " + u.unit) + (rule ? ", past the rule " + rule.text : "") + ": show its chart" },
    el("span", { class: "label" }, label(key), chartIcon()), num, sub);
    b.addEventListener("click", () => openChart(zone, key, "24h", true));
    return b;
  }
  function footer(zone, z) {
    const f = el("footer"), low = past(zone, "battery_percent", z.battery_percent);
    // The battery as its level when the sensor says it, else its voltage
    // (a 1.5 V cell's or a module's 6 V pack: no one scale fits both).
    const vp = "battery_vp" in z ? el("span", { "data-key": "battery_vp", "data-value": String(z.battery_vp), text: volts(z.battery_vp) }) : null;
    if ("battery_percent" in z) {
      f.append(el("span", { class: low ? "past" : undefined, title: low ? low.text : undefined }, "battery ",
        el("span", { "data-key": "battery_percent", "data-value": String(z.battery_percent), text: fmt("battery_percent", z.battery_percent) }), " %",
        vp ? " (" : null, vp, vp ? ")" : null));
    } else if (vp) {
      f.append(el("span", {}, "battery ", vp));
    }
    for (const k of ["rf_status", "wifi_status"]) {
      if (k in z) f.append(el("span", { title: fmt(k, z[k]) + " on Netatmo's scale, where lower is stronger" }, k === "rf_status" ? "radio " : "Wi-Fi ",
        el("span", { "data-key": k, "data-value": String(z[k]), text: signal(k, z[k]) })));
    }
    if ("When" in z) f.append(el("span", {}, "updated ", el("time", { class: "age", "data-key": "When", "data-value": String(z.When), datetime: date(z.When).toISOString(), title: stamp(z.When), text: ago(z.When) })));
    return f;
  }
  function card(zone, z, status) {
    const id = "zone-" + zone.replace(/[^A-Za-z0-9_-]/g, "_");
    const head = el("header", {}, el("h2", { id: id, text: zone }));
    if (status && status.stale) head.append(el("span", { class: "badge stale", role: "status", text: "stale" }));
    if (status && status.fault) head.append(el("span", { class: "badge fault", role: "status", title: status.fault, text: "fault" }));
    const vals = el("div", { class: "values" }, ...W.values(helpers, zone, z, shownKeys(z)));
    return el("article", { class: "card", "data-zone": zone, "aria-labelledby": id }, head, vals, W.feels(helpers, z), footer(zone, z));
  }
  // shownKeys are the keys of z a card shows as values, in order.
  const shownKeys = (z) => Object.keys(z).filter((k) => !DERIVED.has(k) && (units[k] || {}).kind !== "health").sort(byCatalogue);
  // byCatalogue orders measurements as the hub's catalogue does
  // (temperature, humidity, CO₂ …, particles by size), served as st.order.
  function byCatalogue(a, b) {
    const ia = order.indexOf(a), ib = order.indexOf(b);
    return (ia < 0 ? order.length : ia) - (ib < 0 ? order.length : ib) || (a < b ? -1 : a > b ? 1 : 0);
  }
  const helpers = { el: el, fmt: fmt, clock: clock, value: valueButton };
  function render(st) {
    last = st;
    skew = st.now - Date.now() / 1000;
    thresholds = st.thresholds || [];
    $("#demo").hidden = !st.simulated;
    const alerts = st.alerts || [];
    $("#alerts").hidden = alerts.length === 0;
    $("#alerts ul").replaceChildren(...alerts.map((a) => el("li", { "data-rule": a.rule, text: a.zone + ": " + a.text + " (since " + stamp(a.since) + ")" })));
    const status = Object.fromEntries(st.zones.map((z) => [z.name, z]));
    const cards = $("#cards");
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest(".card .value");
    const refocus = focused ? [focused.closest(".card").dataset.zone, $("[data-key]", focused).dataset.key] : null;
    cards.replaceChildren(...Object.keys(st.climate).sort().map((zone) => card(zone, st.climate[zone], status[zone])));
    if (refocus) {
      const again = cards.querySelector(`.card[data-zone="${CSS.escape(refocus[0])}"] .value [data-key="${CSS.escape(refocus[1])}"]`);
      if (again) again.closest(".value").focus();
    }
    for (const c of charts.values()) c.live(st.climate[c.zone]);
  }
  setInterval(() => { for (const t of document.querySelectorAll("time.age")) t.textContent = ago(+t.dataset.value); }, 15000);

  // ---- charts
  function css(name) { return getComputedStyle(document.documentElement).getPropertyValue(name).trim(); }
  function width(div) { return Math.max(10, Math.min(2000, Math.floor(div.clientWidth || 300))); }

  function openChart(zone, m, range, focus) {
    const key = zone + "\u0000" + m;
    let c = charts.get(key);
    if (!c) { c = new Chart(zone, m); charts.set(key, c); $("#charts").prepend(c.root); }
    c.load(range);
    if (focus) c.root.querySelector("h3").focus();
  }

  function Chart(zone, m) {
    this.zone = zone; this.m = m; this.range = "24h"; this.plot = null; this.series = null;
    this.amount = (units[m] || {}).kind === "amount";
    this.direction = (units[m] || {}).kind === "direction";
    const title = el("h3", { tabindex: "-1", text: zone + " · " + label(m) + (unitOf(m) ? " (" + unitOf(m) + ")" : "") });
    this.buttons = RANGES.map((r) => {
      const b = el("button", { type: "button", "data-range": r, "aria-pressed": "false", text: LABELS[r] });
      b.addEventListener("click", () => this.load(r));
      return b;
    });
    const csv = el("button", { type: "button", class: "csv", text: "CSV" });
    csv.addEventListener("click", () => this.csv());
    const close = el("button", { type: "button", "aria-label": "close the chart", text: "✕" });
    close.addEventListener("click", () => { this.destroy(); charts.delete(zone + "\u0000" + m); this.root.remove(); });
    this.summary = el("p", { class: "summary", "aria-live": "polite" });
    this.div = el("div", { class: "plot", role: "img", "aria-label": title.textContent });
    this.root = el("section", { class: "chart", "data-zone": zone, "data-m": m, "aria-label": title.textContent },
      el("header", {}, title, el("div", { role: "group", "aria-label": "range" }, ...this.buttons), csv, close), this.summary, this.div);
    new ResizeObserver(() => { if (this.plot) this.plot.setSize(this.size()); }).observe(this.div);
  }
  Chart.prototype.size = function () { return { width: width(this.div), height: this.div.clientWidth < 500 ? 220 : 280 }; };
  Chart.prototype.destroy = function () { if (this.plot) { this.plot.destroy(); this.plot = null; } };
  Chart.prototype.load = async function (range) {
    this.range = range;
    for (const b of this.buttons) b.setAttribute("aria-pressed", String(b.dataset.range === range));
    this.root.dataset.state = "loading";
    const q = new URLSearchParams({ zone: this.zone, m: this.m, range: range, points: String(width(this.div)) });
    try {
      const res = await fetch("/dash/history?" + q, { credentials: "same-origin" });
      if (!res.ok) throw new Error(await res.text());
      const s = await res.json();
      if (this.range !== range) return; // another range was asked for meanwhile
      this.series = s;
      this.draw();
      this.root.dataset.state = "ready";
    } catch (err) {
      this.summary.textContent = "could not load the history: " + err.message;
      this.root.dataset.state = "error";
    }
  };
  // columns lays the points out for uPlot, with an empty row at each end
  // of the range where the readings do not reach it: the axis spans the
  // chosen range, not just the readings.
  Chart.prototype.columns = function () {
    const s = this.series, cols = s.columns && s.columns.length ? s.columns : ["t", "v"], pts = s.points;
    const rows = pts.slice(), blank = (t) => [t].concat(cols.slice(1).map(() => null));
    const to = Math.max(s.to, pts.length ? pts[pts.length - 1][0] : 0), from = to - SPANS[this.range];
    if (!pts.length || pts[0][0] > from) rows.unshift(blank(from));
    if (!pts.length || pts[pts.length - 1][0] < to) rows.push(blank(to));
    return cols.map((_, i) => rows.map((p) => p[i]));
  };
  Chart.prototype.tooLittle = function () {
    const pts = this.series.points;
    return pts.length < MIN_POINTS || pts[pts.length - 1][0] - pts[0][0] < SPANS[this.range] * MIN_COVER;
  };
  Chart.prototype.draw = function () {
    this.destroy();
    this.div.replaceChildren();
    this.root.dataset.points = String(this.series.points.length);
    this.describe();
    if (this.tooLittle()) {
      const pts = this.series.points;
      delete this.root.dataset.xMin;
      delete this.root.dataset.xMax;
      this.div.append(el("p", { class: "too-little", role: "note", text: pts.length === 0 ? "No readings in the last " + LABELS[this.range] + "."
        : "Too little history to draw " + LABELS[this.range] + " yet (" + pts.length + (pts.length === 1 ? " point" : " points") + ")" +
          (this.range === RANGES[0] ? "." : ": a shorter range shows it.") }));
      return;
    }
    this.plot = new uPlot(this.options(), this.shown(this.columns()), this.div);
    this.drawn();
    const html = document.documentElement; // the time to the first chart, for the tests' figures
    if (!html.dataset.firstChart) html.dataset.firstChart = String(Math.round(performance.now()));
  };
  // coarse says whether the series has a min/max band (rollup tiers).
  Chart.prototype.coarse = function () { return !this.amount && this.series.tier !== "raw" && (this.series.columns || []).length === 4; };
  Chart.prototype.shown = function (data) { return this.coarse() || this.amount ? data : data.slice(0, 2); };
  // drawn keeps on the chart how many values it drew and how (for the
  // tests, and whoever reads the page without seeing the canvas).
  Chart.prototype.drawn = function () {
    const ys = this.plot.data[1] || [];
    this.root.dataset.drawn = String(ys.filter((v) => v != null).length);
    this.root.dataset.style = this.direction ? "points" : this.amount ? "bars" : this.coarse() ? "band" : "line";
  };
  Chart.prototype.options = function () {
    const fg = css("--fg"), line = css("--line"), accent = css("--accent"), coarse = this.coarse();
    const series = [{ value: (u, t) => (t == null ? "–" : stamp(t)) }];
    if (this.amount) {
      series.push({ label: this.m === "Rain" ? "rain (mm)" : label(this.m) + (unitOf(this.m) ? " (" + unitOf(this.m) + ")" : ""),
        stroke: accent, fill: css("--band"), paths: uPlot.paths.bars({ size: [0.9, 40] }), points: { show: false } });
    } else if (this.direction) {
      // Points only: a line from 350° to 10° would cross the whole chart
      // for a wind that turned by 20° through north.
      series.push({ label: "from", stroke: accent, fill: accent, paths: () => null, points: { show: true, size: 5, stroke: accent, fill: accent },
        value: (u, v) => (v == null ? "–" : Math.round(v) + "° " + W.compass(v)) });
    } else {
      series.push({ label: "mean", stroke: accent, width: 2, points: { show: false }, paths: this.m === "Leak" ? uPlot.paths.stepped({ align: 1 }) : undefined });
      if (coarse) {
        series.push({ label: "min", stroke: line, width: 1, points: { show: false } }, { label: "max", stroke: line, width: 1, points: { show: false } });
      }
    }
    const axis = { stroke: fg, grid: { stroke: line, width: 1 }, ticks: { stroke: line, width: 1 } };
    // The x axis's labels and limits are also kept on the chart, for
    // whoever reads it without seeing the canvas (and the tests).
    const xAxis = Object.assign({}, axis, { space: h12 ? 90 : 64, values: (u, splits, i, space, step) => {
      const labels = ticks(splits, step);
      this.root.dataset.axis = labels.join(" | ");
      return labels;
    } });
    const limits = (u, key) => {
      if (key === "x") Object.assign(this.root.dataset, { xMin: String(Math.round(u.scales.x.min)), xMax: String(Math.round(u.scales.x.max)) });
      if (key === "y") Object.assign(this.root.dataset, { yMin: String(u.scales.y.min), yMax: String(u.scales.y.max) });
    };
    const sc = W.scale((units[this.m] || {}).kind, this.m); // a direction's compass, a leak's dry and water
    const yAxis = Object.assign({}, axis, { size: 56 }, sc ? { splits: () => sc.splits, values: (u, splits) => splits.map(sc.values) } : {});
    return Object.assign(this.size(), {
      series: series, axes: [xAxis, yAxis], scales: sc ? { y: { range: sc.range } } : {},
      bands: coarse ? [{ series: [3, 2], fill: css("--band") }] : [],
      cursor: { drag: { x: true, y: false } }, legend: { live: true }, hooks: { setScale: [limits] },
    });
  };
  Chart.prototype.describe = function () {
    const s = this.series, u = (units[this.m] || {}).unit || "", sm = s.summary;
    let text = LABELS[this.range] + ", " + s.tier + (s.step_seconds ? ", step " + s.step : "");
    if (!sm) text += ": no readings";
    else if (this.amount) text += ": total " + sm.sum + " " + unitOf(this.m) + (this.range === "24h" ? " in 24 h" : "");
    else if (this.m === "Leak") text += sm.max ? ": water at " + stamp(sm.max_time) : ": dry throughout";
    else if (this.direction) text += ": mean from " + W.compass(sm.mean) + " (" + Math.round(sm.mean) + "°)";
    else text += ": min " + sm.min + " " + u + " at " + stamp(sm.min_time) + ", max " + sm.max + " " + u + " at " + stamp(sm.max_time);
    this.summary.textContent = text;
    this.div.setAttribute("aria-label", this.root.getAttribute("aria-label") + ", " + text);
  };
  // live appends the zone's newest value to an open 24-h chart; a chart
  // that had too little to draw is drawn once it has enough.
  Chart.prototype.live = function (z) {
    if (!this.series || this.range !== "24h" || !z || !(this.m in z)) return;
    const pts = this.series.points, t = z.When, v = z[this.m];
    if (pts.length && pts[pts.length - 1][0] >= t) return;
    pts.push(this.amount ? [t, v] : [t, v, v, v]);
    const sm = this.series.summary;
    if (this.amount && sm) sm.sum = +(sm.sum + v).toFixed(3);
    else if (sm && "max" in sm) { // the summary's extremes follow (a direction has none)
      if (v > sm.max) Object.assign(sm, { max: v, max_time: t });
      if (v < sm.min) Object.assign(sm, { min: v, min_time: t });
    }
    if (!this.plot) { this.draw(); return; }
    const data = this.columns(), xs = this.plot.data[0];
    const zoomed = xs.length && this.plot.scales.x.max < xs[xs.length - 1];
    this.plot.setData(this.shown(data), !zoomed);
    this.drawn();
    this.root.dataset.points = String(pts.length);
    this.describe();
  };
  // csv downloads the rows between the chart's current x limits.
  Chart.prototype.csv = function () {
    if (!this.series) return;
    const x = this.plot ? this.plot.scales.x : {};
    const rows = this.series.points.filter((p) => x.min == null || (p[0] >= x.min && p[0] <= x.max));
    const cols = this.series.columns || ["t"];
    const text = ["time," + cols.join(",")].concat(rows.map((p) => new Date(p[0] * 1000).toISOString() + "," + p.join(","))).join("\n") + "\n";
    const a = el("a", { href: URL.createObjectURL(new Blob([text], { type: "text/csv" })), download: `${this.zone}-${this.m}-${this.range}.csv` });
    document.body.append(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => { for (const c of charts.values()) if (c.series) c.draw(); });

  // ---- live stream, reconnecting also after the hub refused it (503).
  // A page the user does not see holds no stream: a browser gives a host
  // six connections over plain HTTP, and each open page's stream holds
  // one, so six dashboards in other tabs kept a seventh from loading at
  // all. A page shown again opens its stream, whose first event is the
  // house as it is now.
  let retry = 1000, es = null, again = null;
  function connect() {
    again = null;
    if (document.hidden || es) return;
    const s = es = new EventSource("/dash/events");
    s.addEventListener("state", (e) => { retry = 1000; $("#live").textContent = "live"; render(JSON.parse(e.data)); });
    s.onerror = () => {
      if (s !== es) return;
      $("#live").textContent = "reconnecting…";
      if (s.readyState === EventSource.CLOSED) {
        es = null;
        again = setTimeout(connect, retry + Math.random() * 1000);
        retry = Math.min(retry * 2, 60000);
      }
    };
  }
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) { if (!again) connect(); return; }
    if (es) { es.close(); es = null; }
    $("#live").textContent = "paused";
  });

  async function start() {
    try {
      const res = await fetch("/dash/state", { credentials: "same-origin" });
      if (!res.ok) throw new Error(res.status + " " + (await res.text()));
      const st = await res.json();
      units = st.units || {};
      order = st.order || [];
      render(st);
      document.dispatchEvent(new CustomEvent("climated:state", { detail: st })); // apps.js
      const first = Object.keys(st.climate).sort()[0];
      if (first) {
        const m = shownKeys(st.climate[first])[0];
        if (m) openChart(first, m, "24h", false);
      }
    } catch (err) {
      $("#live").textContent = "could not load the house: " + err.message;
    }
    connect();
  }
  start();
})();
