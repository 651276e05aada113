// climated MCP Apps view: the host side of the conversation, over
// postMessage JSON-RPC as the extension io.modelcontextprotocol/ui
// (2026-01-26) has it. Plain script: nothing fetched from anywhere.
"use strict";
const host = (function () {
  const VERSION = "2026-01-26";
  let next = 1, context = {};
  const pending = new Map(), on = {};
  const send = (msg) => window.parent.postMessage(Object.assign({ jsonrpc: "2.0" }, msg), "*");
  function request(method, params) {
    const id = next++;
    send({ id: id, method: method, params: params || {} });
    return new Promise((resolve, reject) => pending.set(id, { resolve: resolve, reject: reject }));
  }
  function answer(m) {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.error) p.reject(new Error(m.error.message || "error " + m.error.code)); else p.resolve(m.result);
  }
  // A request of the host's (ping, ui/resource-teardown) is answered with
  // an empty result; its notifications go to the view's handlers.
  window.addEventListener("message", (e) => {
    const m = e.data;
    if (e.source !== window.parent || !m || m.jsonrpc !== "2.0") return;
    if (!m.method) { answer(m); return; }
    const h = on[m.method];
    if (m.id !== undefined) { send({ id: m.id, result: {} }); return; }
    if (h) h(m.params || {});
  });
  // theme applies the host's theme, its CSS variables and fonts.
  function theme(ctx) {
    context = Object.assign(context, ctx);
    const root = document.documentElement;
    if (ctx.theme) root.dataset.theme = ctx.theme;
    const vars = (ctx.styles && ctx.styles.variables) || {};
    for (const [k, v] of Object.entries(vars)) if (v) root.style.setProperty(k, v);
    const fonts = ctx.styles && ctx.styles.css && ctx.styles.css.fonts;
    if (fonts && !document.getElementById("host-fonts")) {
      const st = document.createElement("style");
      st.id = "host-fonts";
      st.textContent = fonts;
      document.head.append(st);
    }
    if (on.theme) on.theme(context);
  }
  on["ui/notifications/host-context-changed"] = theme;
  // size tells the host how tall the view is, so the chat column fits it.
  function size() {
    // The body's own height: the document's is at least the frame's, and
    // would never let the frame shrink.
    const box = document.body.getBoundingClientRect();
    send({ method: "ui/notifications/size-changed", params: { width: Math.ceil(box.width), height: Math.ceil(box.height) } });
  }
  async function start(name) {
    const res = await request("ui/initialize", {
      appInfo: { name: name, version: "1" }, appCapabilities: { availableDisplayModes: ["inline"] }, protocolVersion: VERSION,
    });
    theme((res && res.hostContext) || {});
    send({ method: "ui/notifications/initialized", params: {} });
    new ResizeObserver(size).observe(document.body);
  }
  return {
    on: on, start: start, context: () => context,
    // call calls one of the hub's tools through the host.
    call: (name, args) => request("tools/call", { name: name, arguments: args }),
  };
})();

// Shared by the views.
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") e.textContent = v; else if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k);
  return e;
}
const views = {
  label: (key) => ({ AbsolutePressure: "Station pressure", CO2: "CO₂", PM25: "PM2.5", VOCIndex: "VOC index", NOxIndex: "NOx index" }[key] || key),
  time: new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" }),
  stamp: new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }),
  // text is a result's text content: what a failed call says.
  text: (r) => ((r && r.content) || []).filter((c) => c.type === "text").map((c) => c.text).join("\n"),
  // show puts one message in place of the view's content.
  show: (state, text) => {
    const app = document.getElementById("app");
    app.dataset.state = state;
    app.replaceChildren(el("p", { class: "note", role: "status", text: text }));
  },
};
