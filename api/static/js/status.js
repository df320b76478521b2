// The error banner and the page's readiness flag (what the browser tests wait on).

import { append, h, clear, $ } from "./dom.js";

export function showError(err, onSuggestion) {
  const box = $("#error");
  clear(box);
  append(box, h("span", {}, err && err.message ? err.message : String(err)));
  const suggestions = (err && err.suggestions) || [];
  if (suggestions.length) {
    append(box, h("span", { class: "hint" }, " 是否要找："));
    for (const s of suggestions) {
      const name = s.replace(/（.*）$/, "").replace(/ \(.*\)$/, "");
      append(box, h("button", { type: "button", class: "chip", onclick: () => onSuggestion && onSuggestion(name) }, s));
    }
  }
  append(box, h("button", { type: "button", class: "close", "aria-label": "dismiss", onclick: hideError }, "✕"));
  box.hidden = false;
}

export function hideError() {
  const box = $("#error");
  box.hidden = true;
  clear(box);
}

// `data-route` is the hash the page finished rendering: a test waits for it to equal the URL's.
export function setReady(view, ready) {
  document.body.dataset.view = view;
  document.body.dataset.ready = ready ? "1" : "0";
  document.body.dataset.route = ready ? location.hash : "";
}
