// Small DOM helpers: every text goes in through textContent, never as HTML.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  return append(el, ...children);
}

// Appends the children that are not null, undefined or false (Node.append would print "null").
export function append(el, ...children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function show(el, visible) {
  el.hidden = !visible;
}

export const $ = (selector) => document.querySelector(selector);

export function chapterText(chapters) {
  if (!chapters || chapters.length === 0) return "";
  const sorted = [...chapters].sort((a, b) => a - b);
  const parts = [];
  let start = sorted[0];
  let prev = sorted[0];
  for (const c of sorted.slice(1).concat([null])) {
    if (c !== null && c === prev + 1) { prev = c; continue; }
    parts.push(start === prev ? `${start}` : `${start}–${prev}`);
    if (c !== null) { start = c; prev = c; }
  }
  return `第${parts.join("、")}回`;
}

export function download(name, blob) {
  const url = URL.createObjectURL(blob);
  const a = h("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
