// The graph canvas (cytoscape, vendored): styles, relation-type colours, layouts, PNG export.

const TYPE_COLORS = {
  sworn_brothers: "#d62728", master_disciple: "#9467bd", spouse: "#e377c2", family: "#8c564b",
  father_in_law: "#bc8f8f", friend: "#2ca02c", benefactor: "#17becf", rescuer: "#1f9e89",
  superior: "#1f77b4", servant: "#6b8fb5", host_guest: "#bcbd22", colleague: "#7f7f7f",
  enemy: "#ff7f0e", persecutor: "#a50f15", killed: "#000000", fought: "#fd8d3c",
  acquaintance: "#b8b8b8", ally: "#74c476", parent_child: "#6a51a3", siblings: "#c51b8a",
  in_law: "#dd9fc0", lovers: "#f768a1", captured: "#636363", recruited: "#3182bd",
  betrayed: "#54278f",
};
const GROUP_COLORS = { "天罡星": "#e6b422", "地煞星": "#e89f6b" };
const FONT = '"WenQuanYi Zen Hei", "Noto Sans CJK SC", "Noto Sans SC", sans-serif';

export function typeColor(type) {
  return TYPE_COLORS[type] || "#999999";
}

export function groupColor(group) {
  return GROUP_COLORS[group] || "#9ab";
}

const STYLE = [
  { selector: "node", style: {
    "background-color": "data(color)", label: "data(label)", "font-family": FONT, "font-size": 13,
    "text-valign": "bottom", "text-margin-y": 3, width: 24, height: 24, color: "#222",
    "text-outline-color": "#fff", "text-outline-width": 2, "border-width": 1, "border-color": "#666",
  } },
  { selector: "node.center", style: { width: 44, height: 44, "font-size": 17, "font-weight": "bold",
    "border-width": 3, "border-color": "#333" } },
  { selector: "node.anchor", style: { "border-width": 3, "border-color": "#333" } },
  { selector: "node.event", style: { shape: "diamond", width: 16, height: 16, "font-size": 11, label: "",
    "background-color": "#6baed6", "text-max-width": 140, "text-wrap": "ellipsis" } },
  { selector: "node.event.labelled, node.event.hover, node.event:selected", style: { label: "data(label)" } },
  { selector: "node:selected", style: { "border-width": 4, "border-color": "#0a58ca" } },
  { selector: "edge", style: {
    width: 2.5, "line-color": "data(color)", "curve-style": "bezier", opacity: 0.85,
    "target-arrow-color": "data(color)", "font-family": FONT, "font-size": 11,
  } },
  { selector: "edge.directed", style: { "target-arrow-shape": "triangle" } },
  { selector: "edge.participant", style: { width: 1.5, "line-style": "dashed", "line-color": "#9ecae1" } },
  { selector: "edge.labelled", style: { label: "data(label)", "text-background-color": "#fff",
    "text-background-opacity": 1 } },
  { selector: "edge:selected", style: { width: 5, label: "data(label)", "text-background-color": "#fff",
    "text-background-opacity": 1, opacity: 1 } },
  { selector: "node.used", style: { "border-width": 4, "border-color": "#c00" } },
  { selector: "edge.used", style: { "line-color": "#c00", "target-arrow-color": "#c00", opacity: 1, width: 4 } },
  { selector: "edge.used.participant", style: { width: 1.5 } },
  { selector: ".faded", style: { opacity: 0.25 } },
];

let cy = null;

export function currentGraph() {
  return cy;
}

export function destroyGraph() {
  if (cy) { cy.destroy(); cy = null; }
}

export function nodeElement(n, classes = []) {
  const cls = [...classes];
  if (n.kind === "event") cls.push("event");
  return { group: "nodes", data: { id: n.id, label: n.label, kind: n.kind || "person",
    color: n.kind === "event" ? "#6baed6" : groupColor(n.group), degree: n.degree || 0 }, classes: cls.join(" ") };
}

export function edgeElement(e, classes = []) {
  const cls = [...classes];
  if (e.directed) cls.push("directed");
  if (e.kind === "participant") cls.push("participant");
  return { group: "edges", data: { id: e.id, source: e.source, target: e.target, label: e.label,
    type: e.type, chapters: e.chapters || [], kind: e.kind || "relation", color: e.kind === "participant" ? "#9ecae1" : typeColor(e.type) },
    classes: cls.join(" ") };
}

export function mountGraph(container, elements, layout, handlers = {}) {
  destroyGraph();
  container.hidden = false;
  cy = window.cytoscape({
    container, elements, style: STYLE, layout: { name: "preset" },
    minZoom: 0.2, maxZoom: 3, boxSelectionEnabled: false,
  });
  cy.on("tap", "node", (ev) => handlers.node && handlers.node(ev.target.data()));
  cy.on("tap", "edge", (ev) => handlers.edge && handlers.edge(ev.target.data()));
  cy.on("mouseover", "node.event", (ev) => ev.target.addClass("hover"));
  cy.on("mouseout", "node.event", (ev) => ev.target.removeClass("hover"));
  if (layout) runLayout(layout);
  return cy;
}

const MAX_FIT_ZOOM = 1.6;

export function runLayout(layout) {
  if (!cy) return;
  cy.layout({ animate: false, fit: true, padding: 30, ...layout }).run();
  if (cy.zoom() > MAX_FIT_ZOOM) {
    cy.zoom(MAX_FIT_ZOOM);
    cy.center();
  }
}

export function replaceElements(elements, layout) {
  if (!cy) return;
  cy.batch(() => {
    cy.elements().remove();
    cy.add(elements);
  });
  runLayout(layout);
}

export function pngBlob() {
  if (!cy) return null;
  return cy.png({ output: "blob", full: true, scale: 2, bg: "#ffffff" });
}
