// The live page: one EventSource carries the whole state on every change;
// render() rebuilds the view from it. Everything is set with textContent,
// never as HTML, since values come from the debugged program.
"use strict";

const $ = (id) => document.getElementById(id);
let chosen = new URLSearchParams(location.search).get("session") || "";
let source = null;
let current = null;

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function connect() {
  if (source) source.close();
  const q = chosen ? "?session=" + encodeURIComponent(chosen) : "";
  source = new EventSource("/api/events" + q);
  source.addEventListener("state", (ev) => {
    $("conn").textContent = "live";
    $("conn").className = "badge live";
    render(JSON.parse(ev.data));
  });
  source.onerror = () => {
    $("conn").textContent = "reconnecting…";
    $("conn").className = "badge down";
  };
}

function render(st) {
  current = st;
  $("version").textContent = "v" + st.version;
  $("mode").textContent = st.control ? "human control on" : "read-only";
  renderSessions(st);
  const v = st.view;
  const where = $("where");
  where.dataset.state = v ? v.state : "";
  where.dataset.line = v && v.location ? String(v.location.line) : "";
  where.dataset.gen = v ? String(v.gen) : "";
  $("title").textContent = v ? v.name + " (" + v.language + ")" : "—";
  $("state").textContent = v ? v.state : "";
  $("state").className = "state " + (v ? v.state : "");
  let reason = "";
  if (v && v.stopReason) reason = "stopped on " + v.stopReason + (v.description ? ": " + v.description : "");
  else if (v && v.cause) reason = v.cause;
  if (v && v.exitCode !== undefined && v.exitCode !== null) reason += " (exit code " + v.exitCode + ")";
  $("reason").textContent = reason;
  const loc = v && v.location;
  $("location").textContent = loc ? (loc.function ? loc.function + " — " : "") + (loc.file || "") + ":" + loc.line : "";
  $("controls").hidden = !(st.control && v && (v.state === "paused" || v.state === "running"));
  renderSource(v);
  renderStack(v);
  renderLocals(v);
  renderWatches(v);
  renderBreakpoints(st);
  renderOutput(st);
  renderTimeline(st);
}

function renderSessions(st) {
  const ul = $("sessions");
  ul.replaceChildren();
  $("no-sessions").hidden = st.sessions.length > 0;
  for (const s of st.sessions) {
    const li = el("li", s.name);
    if (s.id === st.selected) li.className = "selected";
    li.append(el("small", s.language + " · " + s.state + (s.owner ? " · client " + s.owner : "") + (s.shared ? " · shared" : "")));
    li.onclick = () => { chosen = s.id; history.replaceState(null, "", "?session=" + encodeURIComponent(s.id)); connect(); };
    ul.append(li);
  }
}

function renderSource(v) {
  const pre = $("source");
  pre.replaceChildren();
  if (!v || !v.context) return;
  const at = v.location && v.location.line;
  for (const l of v.context.surrounding) {
    const here = l.line === at;
    const line = el("span", null, here ? "current" : "");
    line.append(el("b", (here ? "▶ " : "  ") + l.line), document.createTextNode(l.content));
    pre.append(line);
  }
}

function renderStack(v) {
  const ol = $("stack");
  ol.replaceChildren();
  for (const f of (v && v.stack) || []) {
    const file = f.file ? f.file.split("/").pop() : "";
    ol.append(el("li", f.name + (file ? "  " + file + ":" + f.line : "")));
  }
}

function renderLocals(v) {
  const body = $("locals").tBodies[0];
  body.replaceChildren();
  for (const x of (v && v.locals) || []) {
    const tr = el("tr");
    tr.append(el("td", x.name), el("td", x.value + (x.type ? "  : " + x.type : "")));
    body.append(tr);
  }
}

function renderWatches(v) {
  const body = $("watches").tBodies[0];
  body.replaceChildren();
  const changed = new Map(((v && v.changed) || []).map((c) => [c.name, c.from]));
  for (const w of (v && v.watches) || []) {
    const tr = el("tr");
    let text = w.error ? "(" + w.error + ")" : w.value;
    if (changed.has(w.expression)) text += "   (was " + changed.get(w.expression) + ")";
    tr.append(el("td", w.expression), el("td", text));
    body.append(tr);
  }
}

function renderBreakpoints(st) {
  const ul = $("breakpoints");
  ul.replaceChildren();
  for (const b of st.breakpoints || []) {
    const file = b.file.split("/").pop();
    let text = "#" + b.id + " " + file + ":" + b.line + (b.verified ? "" : " (unverified)");
    if (b.condition) text += " if " + b.condition;
    if (b.logMessage) text += " log " + b.logMessage;
    ul.append(el("li", text));
  }
  for (const f of st.functionBreakpoints || []) {
    ul.append(el("li", "#" + f.id + " " + f.functionName + "()" + (f.verified ? "" : " (unverified)")));
  }
}

function renderOutput(st) {
  const pre = $("output");
  pre.textContent = (st.output || []).map((e) => e.output).join("");
  pre.scrollTop = pre.scrollHeight;
}

function renderTimeline(st) {
  const ol = $("timeline");
  ol.replaceChildren();
  for (const c of (st.timeline || []).slice().reverse()) {
    const li = el("li", null, c.ok ? "" : "failed");
    li.append(el("span", c.tool, "tool"), document.createTextNode(" "));
    const t = new Date(c.time).toLocaleTimeString();
    li.append(el("small", t + " · " + c.ms.toFixed(1) + " ms" + (c.client ? " · " + c.client : "")));
    if (c.error) li.append(el("div", c.error, "error"));
    ol.append(li);
  }
}

async function act(action) {
  if (!current || !current.selected) return;
  $("control-error").textContent = "";
  const res = await fetch("/api/control", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ sessionId: current.selected, action }),
  });
  if (!res.ok) $("control-error").textContent = (await res.text()).slice(0, 200);
}

document.addEventListener("DOMContentLoaded", () => {
  for (const b of document.querySelectorAll("#controls button")) b.onclick = () => act(b.dataset.action);
  connect();
});
