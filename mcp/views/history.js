// The history view: get_history's series drawn with uPlot (min/max band
// on the coarse tiers, rain as bars), zoom by dragging, a read-out on
// hover, and switches of range and measurement that call the hub's
// view_history through the host.
"use strict";
(function () {
  const RANGES = ["24h", "7d", "30d", "1y"];
  const LABELS = { "24h": "24 h", "7d": "7 days", "30d": "30 days", "1y": "1 year" };
  const SPANS = { "24h": 86400, "7d": 604800, "30d": 2592000, "1y": 31536000 };
  const app = document.getElementById("app");
  let plot = null, series = null, meta = {}, range = "24h";

  // color is the colour the variable name holds as the document computes
  // it, rgb() or rgba(): every colour the chart gets goes through it. The
  // host's variables may be light-dark(…) (ext-apps' example host sends
  // every colour so), which the stylesheet resolves by the theme's
  // color-scheme and a canvas rejects, drawing in black instead.
  function color(name) {
    let probe = document.getElementById("color-probe");
    if (!probe) probe = document.body.appendChild(el("i", { id: "color-probe", hidden: "" }));
    probe.style.color = "var(" + name + ")";
    return getComputedStyle(probe).color;
  }
  // rangeOf names the switch closest to the span the series covers.
  function rangeOf(s) {
    const span = s.to - s.from;
    return RANGES.reduce((best, r) => (Math.abs(SPANS[r] - span) < Math.abs(SPANS[best] - span) ? r : best), "24h");
  }
  // The kind of series is in its columns: an amount's [t, sum] (rain,
  // lightning), a direction's [t, mean] (the wind's: points on a compass,
  // as a line would cross the chart at north), the others' mean, min, max.
  const W = window.climatedWeather;
  const cols = () => series.columns || [];
  const amount = () => cols()[1] === "sum";
  const direction = () => cols().length === 2 && cols()[1] === "mean";
  const coarse = () => !amount() && series.tier !== "raw" && cols().length === 4;
  const label = (m) => W.label(m) || views.label(m);
  const unit = () => W.unit(series.measurement, series.unit);

  function options(width) {
    const fg = color("--fg"), line = color("--line"), accent = color("--accent"), band = color("--band");
    const out = [{ value: (u, t) => (t == null ? "–" : views.stamp.format(new Date(t * 1000))) }];
    if (amount()) {
      out.push({ label: label(series.measurement) + " (" + unit() + ")", stroke: accent, fill: band, paths: uPlot.paths.bars({ size: [0.9, 40] }), points: { show: false } });
    } else if (direction()) {
      out.push({ label: "mean", stroke: accent, paths: () => null, points: { show: true, size: 5, stroke: accent, fill: accent } });
    } else {
      out.push({ label: "mean", stroke: accent, width: 2, points: { show: false } });
      if (coarse()) out.push({ label: "min", stroke: line, width: 1, points: { show: false } }, { label: "max", stroke: line, width: 1, points: { show: false } });
    }
    const axis = { stroke: fg, grid: { stroke: line, width: 1 }, ticks: { stroke: line, width: 1 } };
    const y = Object.assign({}, axis, { size: 50 });
    const dir = direction() ? W.scale("direction") : null;
    if (dir) Object.assign(y, { splits: () => dir.splits, values: (u, vs) => vs.map(dir.values) });
    return {
      width: width, height: width < 420 ? 200 : 240, series: out, axes: [axis, y],
      // One point (a station's first upload) spans the range asked for,
      // not years around it.
      scales: Object.assign(dir ? { y: { range: dir.range } } : {},
        series.points.length < 2 ? { x: { time: true, range: [series.from, series.to] } } : {}),
      bands: coarse() ? [{ series: [3, 2], fill: band }] : [],
      cursor: { drag: { x: true, y: false } }, legend: { live: true },
      // The x limits are kept on the view too, for whoever reads it
      // without seeing the canvas (and the tests).
      hooks: { setScale: [(u, key) => {
        if (key === "x") Object.assign(app.dataset, { xMin: String(Math.round(u.scales.x.min)), xMax: String(Math.round(u.scales.x.max)) });
      }] },
    };
  }
  function columns() {
    const cols = series.columns && series.columns.length ? series.columns : ["t", "v"];
    const keep = coarse() || amount() ? cols.length : 2;
    return cols.slice(0, keep).map((_, i) => series.points.map((p) => p[i]));
  }
  function summary() {
    const sm = series.summary, u = series.unit || "";
    let text = LABELS[range] + ", " + series.tier + (series.step ? ", step " + series.step : "");
    if (amount() && sm) text += ": total " + sm.sum + " " + unit();
    else if (direction() && sm) text += ": mean from " + W.compass(sm.mean) + " (" + sm.mean + "°)";
    else if (sm) text += ": min " + sm.min + " " + u + " at " + views.stamp.format(new Date(sm.min_time * 1000)) +
      ", max " + sm.max + " " + u + " at " + views.stamp.format(new Date(sm.max_time * 1000));
    return text;
  }
  function switches() {
    const buttons = RANGES.map((r) => {
      const b = el("button", { type: "button", "data-range": r, "aria-pressed": String(r === range), text: LABELS[r] });
      b.addEventListener("click", () => load(series.measurement, r));
      return b;
    });
    const ms = meta.measurements && meta.measurements.length ? meta.measurements : [series.measurement];
    const pick = el("select", { "aria-label": "measurement" }, ...ms.map((m) => el("option", { value: m, text: label(m) })));
    pick.value = series.measurement;
    pick.addEventListener("change", () => load(pick.value, range));
    // The ranges keep together: in a narrow column they go under the
    // measurement list as a row, rather than "1 year" alone on a line.
    return el("div", { class: "switches", role: "group", "aria-label": "range and measurement" }, pick, el("span", { class: "ranges" }, ...buttons));
  }
  function draw() {
    if (plot) { plot.destroy(); plot = null; }
    const pts = series.points;
    const title = series.zone + " · " + label(series.measurement) + (unit() ? " (" + unit() + ")" : "");
    const head = el("header", {}, el("h1", { text: title }), meta.simulated ? el("span", { class: "badge demo", text: "simulated" }) : null);
    const div = el("div", { class: "plot", role: "img", "aria-label": title + ", " + summary() });
    app.replaceChildren(head, switches(), el("p", { class: "summary", text: summary() }), div);
    Object.assign(app.dataset, { state: "ready", zone: series.zone, measurement: series.measurement, range: range, points: String(pts.length) });
    if (!pts.length) {
      app.dataset.state = "empty";
      div.replaceWith(el("p", { class: "note", role: "status", text: "No readings of " + label(series.measurement) + " in " + series.zone + " in this range." }));
      return;
    }
    Object.assign(app.dataset, { first: String(pts[0][1]), last: String(pts[pts.length - 1][1]) });
    plot = new uPlot(options(Math.max(200, Math.floor(div.clientWidth || app.clientWidth))), columns(), div);
    Object.assign(app.dataset, { drawn: String(plot.data[0].length), band: coarse() ? "min-max" : "", style: direction() ? "points" : amount() ? "bars" : "line" });
  }
  // show draws a result; r is the range asked for, else the one closest
  // to the series' span.
  function show(result, r) {
    if (!result || result.isError || !result.structuredContent) {
      views.show("error", views.text(result) || "The hub gave no history.");
      return;
    }
    series = result.structuredContent;
    meta = (result._meta && result._meta["climated/history"]) || meta;
    range = r || rangeOf(series);
    draw();
  }
  async function load(m, r) {
    app.dataset.state = "loading";
    try {
      const res = await host.call("view_history", { zone: series.zone, measurement: m, range: r });
      show(res, r);
    } catch (err) {
      views.show("error", "Could not load the history: " + err.message);
    }
  }
  host.on["ui/notifications/tool-result"] = (res) => show(res);
  host.on["ui/notifications/tool-cancelled"] = () => views.show("cancelled", "The call was cancelled.");
  host.on.theme = () => { if (series) draw(); };
  // The chart follows the column's width (the plot's box is 100% of it).
  new ResizeObserver(() => {
    const div = app.querySelector(".plot");
    if (plot && div) plot.setSize({ width: Math.max(200, div.clientWidth), height: plot.height });
  }).observe(app);
  host.start("climated-history").catch((err) => views.show("error", "The host did not answer: " + err.message));
})();
