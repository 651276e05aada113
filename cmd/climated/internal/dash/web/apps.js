// climated dashboard: the assistants signed in with OAuth (docs/oauth.md),
// listed from /api/clients, each with a button that revokes it. Only when
// the hub has OAuth on: /dash/state says so ("apps"), and app.js hands the
// state on in a "climated:state" event.
"use strict";
(function () {
  const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
  let section = null;

  function make(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  const say = (text) => { section.querySelector(".status").textContent = text; };

  function item(a) {
    const li = make("li");
    li.dataset.client = a.id;
    const meta = make("div", "meta");
    meta.append(make("code", "id", a.id),
      make("span", "scopes", a.scopes.length ? a.scopes.join(" ") : "not signed in"),
      make("span", "used", a.last_used ? "last used " + when.format(new Date(a.last_used * 1000)) : "never used"));
    const info = make("div");
    info.append(make("strong", "name", a.name), meta);
    const b = make("button", "revoke", "Revoke");
    b.type = "button";
    b.setAttribute("aria-label", "Revoke " + a.name);
    b.addEventListener("click", () => revoke(a, b));
    li.append(info, b);
    return li;
  }

  async function load() {
    try {
      const res = await fetch("/api/clients", { credentials: "same-origin" });
      if (!res.ok) throw new Error(res.status + " " + (await res.text()));
      const list = await res.json();
      section.querySelector("ul").replaceChildren(...list.map(item));
      section.querySelector(".empty").hidden = list.length > 0;
      section.dataset.state = "ready";
    } catch (err) {
      say("Could not list the connected apps: " + err.message);
    }
  }

  // The first click arms the button, a second within 5 s revokes.
  async function revoke(a, b) {
    if (!b.classList.contains("armed")) {
      b.classList.add("armed");
      b.textContent = "Revoke: sure?";
      setTimeout(() => { b.classList.remove("armed"); b.textContent = "Revoke"; }, 5000);
      return;
    }
    b.disabled = true;
    try {
      const res = await fetch("/api/clients/revoke", { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json" }, body: JSON.stringify({ client_id: a.id }) });
      if (!res.ok && res.status !== 404) throw new Error(res.status + " " + (await res.text()));
      say("Revoked " + a.name + ": its tokens no longer work.");
    } catch (err) {
      say("Could not revoke " + a.name + ": " + err.message);
    }
    load();
  }

  document.addEventListener("climated:state", (e) => {
    if (!e.detail.apps || section) return;
    section = make("section", "apps card");
    section.id = "apps";
    section.setAttribute("aria-label", "Connected apps");
    const status = make("p", "status");
    status.setAttribute("role", "status");
    section.append(make("h2", "", "Connected apps"), make("p", "empty", "No assistant has signed in with OAuth."), make("ul"), status);
    document.querySelector("main").append(section);
    load();
  });
  document.addEventListener("visibilitychange", () => { if (section && !document.hidden) load(); });
})();
