// The router: the URL's hash holds the view (#/pair/林冲/鲁智深), so a view can be shared.

import { $, clear, download } from "./dom.js";
import { attachSuggest } from "./suggest.js";
import { currentGraph, destroyGraph, pngBlob } from "./graph.js";
import { closeSource } from "./source.js";
import { showError, hideError, setReady } from "./status.js";
import * as person from "./views/person.js";
import * as pair from "./views/pair.js";
import * as journey from "./views/journey.js";
import * as path from "./views/path.js";
import * as ask from "./views/ask.js";
import { ApiError, request } from "./api.js";
import { book, bookUrl, hub, loadBook } from "./book.js";

const VIEWS = { person, pair, journey, path, ask };
let DEFAULT = "#/person/";
let data = null;
let graphShown = false;
let rendering = 0;

function parse(hash) {
  const parts = hash.replace(/^#\/?/, "").split("/").filter((p) => p.length).map((p) => {
    try { return decodeURIComponent(p); } catch (err) { return p; }
  });
  const view = parts.shift();
  return { view, args: parts };
}

function resetStage() {
  destroyGraph();
  for (const id of ["#form", "#toolbar", "#content"]) { const el = $(id); clear(el); el.hidden = true; }
  $("#graph").hidden = false;
  closeSource();
}

const ctx = {
  setData: (value) => { data = value; },
  setTitle: (title) => { document.title = `${title} · ${book.title} · kbx`; },
  usesGraph: (yes) => { graphShown = yes; $("#graph").hidden = !yes; $("#export-png").disabled = !yes; },
};

async function route() {
  const { view, args } = parse(location.hash);
  if (!VIEWS[view]) { history.replaceState(null, "", DEFAULT); route(); return; }
  const ticket = ++rendering;
  setReady(view, false);
  hideError();
  resetStage();
  data = null;
  for (const tab of document.querySelectorAll("#tabs a")) tab.classList.toggle("active", tab.dataset.tab === view);
  try {
    await VIEWS[view].render(args, ctx);
  } catch (err) {
    if (ticket !== rendering) return;
    showError(err, (name) => { location.hash = `#/${view}/${encodeURIComponent(name)}`; });
    ctx.usesGraph(false);
  }
  if (ticket === rendering) setReady(view, true);
}

function exportName(ext) {
  const { view, args } = parse(location.hash);
  return `kbx-${[view, ...args].join("-").replace(/[\\/:*?"<>|\s]+/g, "_").slice(0, 80)}.${ext}`;
}

$("#export-json").addEventListener("click", () => {
  if (!data) return;
  download(exportName("json"), new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
});
$("#export-png").addEventListener("click", () => {
  const blob = graphShown ? pngBlob() : null;
  if (blob) download(exportName("png"), blob);
});

attachSuggest($("#search"), (match) => {
  location.hash = `#/person/${encodeURIComponent(match.name)}`;
  $("#search").value = "";
});

// For the browser tests and the console: the graph as drawn.
window.kbx = { graph: currentGraph };

// The book: the brand and the page's title name it, the selector switches to another (a new
// page on that book's first person), and the views start on its most connected people.
function showBook() {
  const home = `#/person/${encodeURIComponent(hub(0))}`;
  DEFAULT = home;
  const brand = $("#brand");
  brand.textContent = `kbx · ${book.title}`;
  brand.setAttribute("href", home);
  document.title = `${book.title} · kbx`;
  const starts = { person: [hub(0)], pair: [hub(0), hub(1)], journey: [hub(0)], path: [hub(0), hub(2)], ask: [] };
  for (const tab of document.querySelectorAll("#tabs a")) {
    tab.setAttribute("href", `#/${[tab.dataset.tab, ...starts[tab.dataset.tab].map(encodeURIComponent)].join("/")}`);
  }
  $("#search").setAttribute("placeholder", `人物：${hub(0)}`);
  const select = $("#book");
  clear(select);
  for (const b of book.all) {
    const option = document.createElement("option");
    option.value = b.name;
    option.textContent = `${b.title} (${b.name})`;
    option.selected = b.name === book.name;
    select.append(option);
  }
  select.hidden = book.all.length < 2;
  select.addEventListener("change", () => { location.assign(bookUrl(select.value)); });
}

async function start() {
  try {
    await loadBook(request, ApiError);
  } catch (err) {
    showError(err, (name) => { location.assign(bookUrl(name)); });
    setReady("book", true);
    return;
  }
  showBook();
  window.addEventListener("hashchange", route);
  route();
}

start();
