// climated dashboard: cards from /dash/state, live from /dash/events,
// charts of /dash/history with uPlot. No framework, nothing from elsewhere.
"use strict";
(function () {
  const RANGES = ["24h", "7d", "30d", "1y"];
  const LABELS = { "24h": "24 h", "7d": "7 days", "30d": "30 days", "1y": "1 year" };
  const DERIVED = new Set(["When", "min_temp", "max_temp", "date_min_temp", "date_max_temp", "temp_trend",
    "pressure_trend", "sum_rain_1", "sum_rain_24"]);
  const ARROWS = { up: "↑", down: "↓", stable: "→" };
  let units = {}, last = null, skew = 0;
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
  const clock = (t) => new Date(t * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  function fmt(key, v) {
    const u = units[key];
    return typeof v === "number" && u ? v.toFixed(u.decimals) : String(v);
  }
  function ago(t) {
    const s = Math.max(0, Math.round(now() - t));
    if (s < 90) return s + " s ago";
    if (s < 5400) return Math.round(s / 60) + " min ago";
    if (s < 172800) return Math.round(s / 3600) + " h ago";
    return Math.round(s / 86400) + " days ago";
  }
  function signal(key, v) { // Netatmo scales, lower is better
    const steps = key === "wifi_status" ? [[56, "good"], [71, "average"], [86, "bad"]]
      : [[60, "full"], [70, "high"], [80, "medium"], [90, "low"]];
    for (const [lim, word] of steps) if (v <= lim) return word;
    return "very low";
  }
  const label = (key) => ({ AbsolutePressure: "Station pressure", CO2: "CO₂", PM25: "PM2.5", VOCIndex: "VOC index", NOxIndex: "NOx index" }[key] || key);

  // ---- cards
  function valueButton(zone, key, z) {
    const u = units[key] || {};
    const trend = key === "Temperature" ? z.temp_trend : key === "Pressure" ? z.pressure_trend : undefined;
    const num = el("span", { class: "num" }, el("span", { "data-key": key, "data-value": String(z[key]), text: fmt(key, z[key]) }),
      u.unit ? el("span", { class: "unit", text: u.unit }) : null,
      trend ? el("span", { class: "trend", "data-key": key === "Temperature" ? "temp_trend" : "pressure_trend", "data-value": trend, title: "trend: " + trend, text: ARROWS[trend] || "" }) : null);
    const sub = el("span", { class: "sub" });
    if (key === "Temperature" && "min_temp" in z) {
      sub.append("min ", el("span", { "data-key": "min_temp", "data-value": String(z.min_temp), text: fmt(key, z.min_temp) }),
        " at ", el("time", { "data-key": "date_min_temp", "data-value": String(z.date_min_temp), text: clock(z.date_min_temp) }),
        " · max ", el("span", { "data-key": "max_temp", "data-value": String(z.max_temp), text: fmt(key, z.max_temp) }),
        " at ", el("time", { "data-key": "date_max_temp", "data-value": String(z.date_max_temp), text: clock(z.date_max_temp) }));
    }
    if (key === "Rain") {
      sub.append("1 h ", el("span", { "data-key": "sum_rain_1", "data-value": String(z.sum_rain_1), text: fmt("Rain", z.sum_rain_1) }),
        " mm · 24 h ", el("span", { "data-key": "sum_rain_24", "data-value": String(z.sum_rain_24), text: fmt("Rain", z.sum_rain_24) }), " mm");
    }
    const b = el("button", { class: "value", type: "button", "aria-label": label(key) + " " + fmt(key, z[key]) + " " + (u.unit || "") + ": show its chart" },
      el("span", { class: "label", text: label(key) }), num, sub);
    b.addEventListener("click", () => openChart(zone, key, "24h", true));
    return b;
  }
  function footer(z) {
    const f = el("footer");
    if ("battery_percent" in z) f.append(el("span", {}, "battery ", el("span", { "data-key": "battery_percent", "data-value": String(z.battery_percent), text: fmt("battery_percent", z.battery_percent) }), " %"));
    if ("battery_vp" in z) f.append(el("span", {}, el("span", { "data-key": "battery_vp", "data-value": String(z.battery_vp), text: fmt("battery_vp", z.battery_vp) }), " mV"));
    for (const k of ["rf_status", "wifi_status"]) {
      if (k in z) f.append(el("span", {}, k === "rf_status" ? "radio " : "Wi-Fi ", el("span", { "data-key": k, "data-value": String(z[k]), title: "Netatmo scale, lower is better", text: fmt(k, z[k]) }), " (" + signal(k, z[k]) + ")"));
    }
    if ("When" in z) f.append(el("span", {}, "updated ", el("time", { class: "age", "data-key": "When", "data-value": String(z.When), datetime: new Date(z.When * 1000).toISOString(), text: ago(z.When) })));
    return f;
  }
  function card(zone, z, status) {
    const id = "zone-" + zone.replace(/[^A-Za-z0-9_-]/g, "_");
    const head = el("header", {}, el("h2", { id: id, text: zone }));
    if (status && status.stale) head.append(el("span", { class: "badge stale", role: "status", text: "stale" }));
    if (status && status.fault) head.append(el("span", { class: "badge fault", role: "status", title: status.fault, text: "fault" }));
    const vals = el("div", { class: "values" });
    for (const key of Object.keys(z).sort(order)) {
      if (!DERIVED.has(key) && (units[key] || {}).kind !== "health") vals.append(valueButton(zone, key, z));
    }
    return el("article", { class: "card", "data-zone": zone, "aria-labelledby": id }, head, vals, footer(z));
  }
  const ORDER = ["Temperature", "Humidity", "CO2", "Pressure", "Rain"];
  function order(a, b) {
    const ia = ORDER.indexOf(a), ib = ORDER.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || (a < b ? -1 : a > b ? 1 : 0);
  }
  function render(st) {
    last = st;
    skew = st.now - Date.now() / 1000;
    $("#demo").hidden = !st.simulated;
    const alerts = st.alerts || [];
    $("#alerts").hidden = alerts.length === 0;
    $("#alerts ul").replaceChildren(...alerts.map((a) => el("li", { "data-rule": a.rule, text: a.zone + ": " + a.text + " (since " + clock(a.since) + ")" })));
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
    const title = el("h3", { tabindex: "-1", text: zone + " · " + label(m) + (units[m] && units[m].unit ? " (" + units[m].unit + ")" : "") });
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
  Chart.prototype.columns = function () {
    const s = this.series, cols = s.columns || [];
    const data = cols.map(() => []);
    for (const p of s.points) for (let i = 0; i < cols.length; i++) data[i].push(p[i]);
    return data.length ? data : [[], []];
  };
  Chart.prototype.draw = function () {
    this.destroy();
    const s = this.series, fg = css("--fg"), line = css("--line"), accent = css("--accent");
    const data = this.columns();
    const coarse = !this.amount && s.tier !== "raw" && data.length === 4;
    const series = [{}];
    if (this.amount) {
      series.push({ label: "rain (mm)", stroke: accent, fill: css("--band"), paths: uPlot.paths.bars({ size: [0.9, 40] }), points: { show: false } });
    } else {
      series.push({ label: "mean", stroke: accent, width: 2, points: { show: false } });
      if (coarse) {
        series.push({ label: "min", stroke: line, width: 1, points: { show: false } }, { label: "max", stroke: line, width: 1, points: { show: false } });
      }
    }
    const shown = coarse || this.amount ? data : data.slice(0, 2);
    const axis = { stroke: fg, grid: { stroke: line, width: 1 }, ticks: { stroke: line, width: 1 } };
    const opts = Object.assign(this.size(), {
      series: series, axes: [axis, Object.assign({}, axis, { size: 56 })],
      bands: coarse ? [{ series: [3, 2], fill: css("--band") }] : [],
      cursor: { drag: { x: true, y: false } }, legend: { live: true },
    });
    this.plot = new uPlot(opts, shown, this.div);
    this.describe();
    this.root.dataset.points = String(data[0].length);
    const html = document.documentElement; // the time to the first chart, for the tests' figures
    if (!html.dataset.firstChart) html.dataset.firstChart = String(Math.round(performance.now()));
  };
  Chart.prototype.describe = function () {
    const s = this.series, u = (units[this.m] || {}).unit || "", sm = s.summary;
    let text = LABELS[this.range] + ", " + s.tier + (s.step_seconds ? ", step " + s.step : "");
    if (!sm) text += ": no readings";
    else if (this.amount) text += ": total " + sm.sum + " " + u + (this.range === "24h" ? " in 24 h" : "");
    else text += ": min " + sm.min + " " + u + " at " + new Date(sm.min_time * 1000).toLocaleString() + ", max " + sm.max + " " + u + " at " + new Date(sm.max_time * 1000).toLocaleString();
    this.summary.textContent = text;
    this.div.setAttribute("aria-label", this.root.getAttribute("aria-label") + ", " + text);
  };
  // live appends the zone's newest value to an open 24-h chart.
  Chart.prototype.live = function (z) {
    if (!this.plot || this.range !== "24h" || !z || !(this.m in z)) return;
    const pts = this.series.points, t = z.When, v = z[this.m];
    if (pts.length && pts[pts.length - 1][0] >= t) return;
    pts.push(this.amount ? [t, v] : [t, v, v, v]);
    if (this.amount && this.series.summary) this.series.summary.sum = +(this.series.summary.sum + v).toFixed(3);
    const data = this.columns();
    const x = this.plot.scales.x, zoomed = this.plot.data[0].length && x.max < this.plot.data[0][this.plot.data[0].length - 1];
    this.plot.setData(this.plot.series.length === 2 ? data.slice(0, 2) : data, !zoomed);
    this.root.dataset.points = String(data[0].length);
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

  // ---- live stream, reconnecting also after the hub refused it (503)
  let retry = 1000;
  function connect() {
    const es = new EventSource("/dash/events");
    es.addEventListener("state", (e) => { retry = 1000; $("#live").textContent = "live"; render(JSON.parse(e.data)); });
    es.onerror = () => {
      $("#live").textContent = "reconnecting…";
      if (es.readyState === EventSource.CLOSED) { setTimeout(connect, retry + Math.random() * 1000); retry = Math.min(retry * 2, 60000); }
    };
  }

  async function start() {
    try {
      const res = await fetch("/dash/state", { credentials: "same-origin" });
      if (!res.ok) throw new Error(res.status + " " + (await res.text()));
      const st = await res.json();
      units = st.units || {};
      render(st);
      const first = Object.keys(st.climate).sort()[0];
      if (first) {
        const m = Object.keys(st.climate[first]).filter((k) => !DERIVED.has(k) && (units[k] || {}).kind !== "health").sort(order)[0];
        if (m) openChart(first, m, "24h", false);
      }
    } catch (err) {
      $("#live").textContent = "could not load the house: " + err.message;
    }
    connect();
  }
  start();
})();
