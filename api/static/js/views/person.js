// A person's neighbourhood: relations coloured by type with a legend that filters by type, a
// chapter range that shows the graph as of those chapters, expand a node, a cap with "more".

import { api, resolvePerson } from "../api.js";
import { append, h, clear, $, chapterText } from "../dom.js";
import { mountGraph, replaceElements, nodeElement, edgeElement, typeColor } from "../graph.js";
import { setPanelHome, showRecord, sourcesList, personLink } from "../panel.js";
import { markFirstPaint } from "../timing.js";
import { hub } from "../book.js";

export const CAP_STEP = 25;

function chaptersOf(edge) {
  return edge.chapters.length ? edge.chapters : [0];
}

class Neighbourhoods {
  constructor() {
    this.nodes = new Map();
    this.edges = new Map();
    this.anchors = [];
    this.events = [];
    this.center = null;
  }

  add(graph) {
    for (const n of graph.nodes) if (!this.nodes.has(n.id)) this.nodes.set(n.id, n);
    for (const e of graph.edges) this.edges.set(e.id, e);
    if (!this.anchors.includes(graph.center.id)) this.anchors.push(graph.center.id);
  }

  bounds() {
    let lo = Infinity;
    let hi = -Infinity;
    for (const e of this.edges.values()) for (const c of chaptersOf(e)) { lo = Math.min(lo, c); hi = Math.max(hi, c); }
    return Number.isFinite(lo) ? [lo, hi] : [0, 0];
  }

  types() {
    const counts = new Map();
    for (const e of this.edges.values()) counts.set(e.type, [e.label, (counts.get(e.type)?.[1] || 0) + 1]);
    return [...counts.entries()].sort((a, b) => b[1][1] - a[1][1]);
  }

  // Edges passing the filters; then each anchor keeps its `cap` best neighbours.
  visible(filter) {
    const edges = [...this.edges.values()].filter((e) => filter.types.has(e.type)
      && chaptersOf(e).some((c) => c >= filter.from && c <= filter.to));
    const degree = new Map();
    for (const e of edges) for (const end of [e.source, e.target]) degree.set(end, (degree.get(end) || 0) + 1);
    const keep = new Set(this.anchors);
    let hidden = 0;
    for (const anchor of this.anchors) {
      const around = new Map();
      for (const e of edges) {
        const other = e.source === anchor ? e.target : e.target === anchor ? e.source : null;
        if (other && other !== anchor) around.set(other, (around.get(other) || 0) + 1);
      }
      const ranked = [...around.entries()].sort((a, b) => b[1] - a[1] || (this.nodes.get(a[0])?.label || "").localeCompare(this.nodes.get(b[0])?.label || ""));
      ranked.slice(0, filter.cap).forEach(([id]) => keep.add(id));
      hidden += ranked.slice(filter.cap).filter(([id]) => !keep.has(id)).length;
    }
    const shownEdges = edges.filter((e) => keep.has(e.source) && keep.has(e.target));
    const shownNodes = [...keep].filter((id) => this.nodes.has(id));
    return { nodes: shownNodes.map((id) => ({ ...this.nodes.get(id), degree: degree.get(id) || 0 })), edges: shownEdges, hidden };
  }
}

const LAYOUT = (center) => ({
  name: "concentric", minNodeSpacing: 14, avoidOverlap: true,
  concentric: (n) => (n.id() === center ? 1000 : n.hasClass("anchor") ? 500 : n.data("degree")),
  levelWidth: () => 2,
});

export async function render(args, ctx) {
  const name = args[0] || hub(0);
  const first = await api.graph(await resolvePerson(name));
  window.kbxTimings.graphData = performance.now();
  const state = new Neighbourhoods();
  state.add(first);
  state.center = first.center;
  state.events = null;
  const [lo, hi] = state.bounds();
  const filter = { types: new Set(state.types().map(([t]) => t)), from: lo, to: hi, cap: CAP_STEP };

  const toolbar = $("#toolbar");
  clear(toolbar);
  const legend = h("div", { class: "legend", "aria-label": "relation types" });
  const fromInput = h("input", { type: "range", min: lo, max: hi, value: lo, id: "ch-from", "aria-label": "from chapter" });
  const toInput = h("input", { type: "range", min: lo, max: hi, value: hi, id: "ch-to", "aria-label": "to chapter" });
  const rangeLabel = h("span", { class: "range-label" });
  const capLabel = h("span", { class: "cap-label" });
  const more = h("button", { type: "button", id: "more", onclick: () => { filter.cap += CAP_STEP; redraw(); } }, "更多");
  append(toolbar, 
    h("div", { class: "slider" }, h("span", {}, "章回"), fromInput, toInput, rangeLabel),
    h("div", { class: "cap" }, capLabel, more),
    legend);
  toolbar.hidden = false;

  function renderLegend() {
    clear(legend);
    for (const [type, [label, count]] of state.types()) {
      const box = h("input", { type: "checkbox", checked: filter.types.has(type), dataset: { type },
        onchange: (ev) => { if (ev.target.checked) filter.types.add(type); else filter.types.delete(type); redraw(); } });
      append(legend, h("label", { class: "legend-item", style: `--c:${typeColor(type)}`, title: type },
        box, h("span", { class: "swatch" }), `${label} ${count}`));
    }
  }

  function elements() {
    const shown = state.visible(filter);
    rangeLabel.textContent = `第${filter.from}–${filter.to}回`;
    const people = shown.nodes.length - state.anchors.length;
    capLabel.textContent = `显示 ${people} 人${shown.hidden ? `，另有 ${shown.hidden} 人` : ""}`;
    more.hidden = shown.hidden === 0;
    return [
      ...shown.nodes.map((n) => nodeElement(n, n.id === state.center.id ? ["center", "anchor"] : state.anchors.includes(n.id) ? ["anchor"] : [])),
      ...shown.edges.map((e) => edgeElement(e)),
    ];
  }

  function redraw() {
    replaceElements(elements(), LAYOUT(state.center.id));
    ctx.setData(exportData());
  }

  async function expand(id) {
    if (state.anchors.includes(id)) return;
    const added = await api.graph(id);
    state.add(added);
    const [a, b] = state.bounds();
    for (const input of [fromInput, toInput]) { input.min = a; input.max = b; }
    for (const [type] of state.types()) if (!filter.types.has(type) && !state.knownTypes.has(type)) filter.types.add(type);
    state.knownTypes = new Set(state.types().map(([t]) => t));
    renderLegend();
    redraw();
  }
  state.knownTypes = new Set(state.types().map(([t]) => t));

  const onRange = () => {
    let a = Number(fromInput.value);
    let b = Number(toInput.value);
    if (a > b) [a, b] = [b, a];
    filter.from = a;
    filter.to = b;
    redraw();
  };
  fromInput.addEventListener("input", onRange);
  toInput.addEventListener("input", onRange);

  function nodePanel(node) {
    const center = state.center;
    const panel = $("#panel");
    clear(panel);
    panel.dataset.mode = "node";
    const n = state.nodes.get(node.id);
    append(panel, 
      h("div", { class: "panel-head" }, h("button", { type: "button", class: "back", onclick: () => setPanelHome(home) }, "← 返回")),
      h("h3", {}, n.label, " ", h("span", { class: "muted" }, n.group || "")),
      h("div", { class: "actions" },
        h("button", { type: "button", id: "expand", disabled: state.anchors.includes(n.id), onclick: () => expand(n.id) }, "展开"),
        h("a", { class: "button", href: `#/person/${encodeURIComponent(n.label)}` }, "以其为中心"),
        n.id !== center.id ? h("a", { class: "button", href: `#/pair/${encodeURIComponent(center.name)}/${encodeURIComponent(n.label)}` }, `与${center.name}`) : null,
        n.id !== center.id ? h("a", { class: "button", href: `#/path/${encodeURIComponent(center.name)}/${encodeURIComponent(n.label)}` }, "路径") : null,
        h("a", { class: "button", href: `#/journey/${encodeURIComponent(n.label)}` }, "经历")),
      h("h4", {}, "关系"),
      h("ul", { class: "relations" }, [...state.edges.values()]
        .filter((e) => e.source === n.id || e.target === n.id)
        .map((e) => h("li", {}, h("button", { type: "button", class: "link", onclick: () => showRecord(e.id) },
          `${state.nodes.get(e.source)?.label || e.source} — ${state.nodes.get(e.target)?.label || e.target}`),
          " ", h("span", { class: "type-chip", style: `--c:${typeColor(e.type)}` }, e.label), " ",
          h("span", { class: "chapters" }, chapterText(e.chapters))))),
    );
  }

  function home(panel) {
    const p = state.center;
    append(panel, 
      h("h3", {}, p.name, " ", h("span", { class: "muted" }, p.aliases.join("、"))),
      h("p", { class: "chapters" }, [p.group, p.first_chapter != null ? `初见第${p.first_chapter}回` : null].filter(Boolean).join(" · ")),
      p.profile ? h("p", { class: "desc" }, p.profile) : null,
      h("div", { class: "actions" },
        h("a", { class: "button", href: `#/journey/${encodeURIComponent(p.name)}` }, "经历"),
        h("a", { class: "button", href: `#/ask/${encodeURIComponent(`${p.name}是什么来头`)}` }, "问")),
      h("h4", {}, "原文"), sourcesList(p.sources),
      eventList(),
    );
  }

  // Events come after the first paint: a hub's hundreds of events must not delay the graph.
  const eventsBox = h("div", { class: "person-events" }, h("h4", {}, "事件"), h("p", { class: "muted" }, "载入中…"));
  function eventList() {
    if (state.events) fillEvents();
    return eventsBox;
  }
  function fillEvents() {
    clear(eventsBox);
    append(eventsBox, h("h4", {}, `事件（${state.events.length}）`),
      h("ol", { class: "events" }, state.events.map((e) => h("li", {},
        h("span", { class: "chapter" }, `第${e.chapter}回`), " ",
        h("button", { type: "button", class: "link", onclick: () => showRecord(e.id) }, e.title)))));
  }

  function exportData() {
    const shown = state.visible(filter);
    return { view: "person", center: state.center, filter: { types: [...filter.types], from: filter.from, to: filter.to, cap: filter.cap },
      nodes: shown.nodes, edges: shown.edges, hidden: shown.hidden, events: state.events };
  }

  renderLegend();
  mountGraph($("#graph"), elements(), LAYOUT(state.center.id), {
    node: (data) => nodePanel(data),
    edge: (data) => showRecord(data.id),
  });
  window.kbxTimings.mounted = performance.now();
  markFirstPaint();
  setPanelHome(home);
  ctx.setData(exportData());
  state.events = await api.events(state.center.id);
  fillEvents();
  ctx.setData(exportData());
  ctx.setTitle(`${state.center.name} · 人物`);
  ctx.usesGraph(true);
}
