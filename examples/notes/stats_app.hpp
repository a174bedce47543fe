// The note-statistics view: an MCP App (ext/apps.hpp) the host shows beside a note_stats result.
// One self-contained page: it speaks the app side of the MCP Apps protocol (JSON-RPC 2.0 over
// postMessage with the host: ui/initialize, then the tool's input and result as notifications) and
// renders the result's structuredContent. No network, no outside scripts: its CSP can stay empty.
#pragma once

namespace notes {

inline constexpr const char* stats_app_uri = "ui://notes/stats.html";

inline constexpr const char* stats_app_html = R"html(<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Note statistics</title>
<style>
  :root { color-scheme: light dark; font: 14px/1.4 system-ui, sans-serif; }
  body { margin: 0; padding: 12px 16px; }
  h1 { font-size: 16px; margin: 0 0 8px; }
  .figures { display: flex; gap: 24px; margin-bottom: 8px; }
  .figure b { display: block; font-size: 24px; }
  ol { margin: 4px 0 0; padding-left: 20px; }
  .muted { opacity: 0.7; }
  .error { color: #b00020; }
</style>
</head>
<body>
<main id="view" class="muted">Waiting for the note's statistics...</main>
<script>
"use strict";
// The app side of the MCP Apps protocol: requests carry an id and get a result or an error;
// notifications carry none. Messages from anything but the parent window are ignored.
const pending = new Map();
let nextId = 1;
const send = (message) => window.parent.postMessage(Object.assign({ jsonrpc: "2.0" }, message), "*");
const request = (method, params) => new Promise((resolve, reject) => {
  const id = nextId++;
  pending.set(id, { resolve, reject });
  send({ id, method, params });
});
const view = document.getElementById("view");

function element(tag, text, className) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  return e;
}

function reportSize() {
  send({ method: "ui/notifications/size-changed",
         params: { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight } });
}

function render(result) {
  view.replaceChildren();
  view.className = "";
  const stats = result.structuredContent;
  if (result.isError || !stats || typeof stats !== "object") {
    const said = (result.content || []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
    view.append(element("p", said || "The tool returned no statistics.", "error"));
    reportSize();
    return;
  }
  view.append(element("h1", stats.title));
  const figures = element("div", undefined, "figures");
  const figure = (label, value, id) => {
    const f = element("div", undefined, "figure");
    const b = element("b", String(value));
    b.id = id;
    f.append(b, label);
    figures.append(f);
  };
  figure("words", stats.word_count, "word-count");
  figure("headings", stats.headings.length, "heading-count");
  view.append(figures);
  if (stats.headings.length) {
    const list = element("ol");
    list.id = "headings";
    for (const h of stats.headings) list.append(element("li", h));
    view.append(list);
  }
  view.append(element("p", "Last changed " + stats.last_modified, "muted"));
  document.body.dataset.rendered = "true";
  reportSize();
}

window.addEventListener("message", (event) => {
  if (event.source !== window.parent) return;
  const m = event.data;
  if (!m || m.jsonrpc !== "2.0") return;
  if (m.method === undefined && pending.has(m.id)) {  // a response to one of our requests
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.error) p.reject(m.error); else p.resolve(m.result);
  } else if (m.method === "ui/notifications/tool-input") {
    const title = m.params && m.params.arguments && m.params.arguments.title;
    view.textContent = "Counting words in " + (title ? "'" + title + "'" : "the note") + "...";
  } else if (m.method === "ui/notifications/tool-result") {
    render(m.params);
  } else if (m.method === "ui/notifications/host-context-changed") {
    if (m.params && m.params.theme) document.documentElement.style.colorScheme = m.params.theme;
  } else if (m.id !== undefined && (m.method === "ui/resource-teardown" || m.method === "ping")) {
    send({ id: m.id, result: {} });
  } else if (m.id !== undefined && m.method !== undefined) {
    send({ id: m.id, error: { code: -32601, message: "Method not found: " + m.method } });
  }
});

request("ui/initialize", {
  appInfo: { name: "notes-stats", version: "1.0.0" },
  appCapabilities: {},
  protocolVersion: "2026-01-26",
}).then((result) => {
  const theme = result.hostContext && result.hostContext.theme;
  if (theme) document.documentElement.style.colorScheme = theme;
  send({ method: "ui/notifications/initialized", params: {} });
}, (error) => {
  view.textContent = "The host refused to start the view: " + (error.message || "unknown error");
  view.className = "error";
});
</script>
</body>
</html>
)html";

}  // namespace notes
