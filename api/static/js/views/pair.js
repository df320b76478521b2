// Two people: their relations with where each began, and their shared events as a timeline.

import { api, resolvePerson } from "../api.js";
import { append, h, $, chapterText } from "../dom.js";
import { mountGraph, nodeElement, edgeElement } from "../graph.js";
import { setPanelHome, showRecord, quoteLink, typeChip, personLink } from "../panel.js";
import { twoNamesForm } from "../forms.js";
import { hub } from "../book.js";

const MAX_EVENTS = 40;

function firstChapter(relation) {
  const chapters = [...relation.chapters, ...relation.sources.map((s) => s.chapter).filter((c) => c != null)];
  return chapters.length ? Math.min(...chapters) : null;
}

function firstSource(relation) {
  const start = firstChapter(relation);
  return relation.sources.find((s) => s.chapter === start) || relation.sources[0];
}

export async function render(args, ctx) {
  const [a, b] = [args[0] || hub(0), args[1] || hub(1)];
  twoNamesForm("pair", a, b, "查看两人");
  const pair = await api.pair(await resolvePerson(a), await resolvePerson(b));
  const nodes = [
    nodeElement({ id: pair.a.id, label: pair.a.name, group: pair.a.group }, ["center"]),
    nodeElement({ id: pair.b.id, label: pair.b.name, group: pair.b.group }, ["center"]),
  ];
  // Preset positions: the two people above, their shared events below on a line in book order.
  const shown = pair.shared_events.slice(0, MAX_EVENTS);
  const span = Math.max(1, shown.length - 1);
  nodes[0].position = { x: -160, y: 0 };
  nodes[1].position = { x: 160, y: 0 };
  const events = shown.map((e, i) => ({ ...nodeElement({ id: e.id, label: `第${e.chapter}回`, kind: "event" }, ["labelled"]),
    position: { x: shown.length === 1 ? 0 : -360 + (720 * i) / span, y: 170 + (i % 2) * 40 } }));
  const links = shown.flatMap((e) => [pair.a.id, pair.b.id].map((p) => edgeElement({
    id: `${e.id}~${p}`, source: p, target: e.id, kind: "participant", label: "", type: "participant" })));
  const relations = pair.relations.map((r) => edgeElement({ ...r, kind: "relation" }, ["labelled"]));
  mountGraph($("#graph"), [...nodes, ...events, ...links, ...relations], { name: "preset" },
    { node: (d) => (d.kind === "event" ? showRecord(d.id) : null), edge: (d) => (d.kind === "relation" ? showRecord(d.id) : null) });

  setPanelHome((panel) => {
    append(panel, 
      h("h3", {}, personLink(pair.a.id, pair.a.name), " — ", personLink(pair.b.id, pair.b.name)),
      h("h4", {}, `关系（${pair.relations.length}）`),
      pair.relations.length ? h("ul", { class: "pair-relations" }, pair.relations.map((r) => {
        const start = firstChapter(r);
        const src = firstSource(r);
        return h("li", { class: "pair-relation", dataset: { id: r.id, type: r.type } },
          h("div", {}, typeChip(r.type, r.label), " ",
            h("button", { type: "button", class: "link", onclick: () => showRecord(r.id) }, r.description || r.label)),
          h("div", { class: "began" }, start != null ? `始于第${start}回` : "", " ", h("span", { class: "chapters" }, chapterText(r.chapters))),
          src ? quoteLink(src.quote, src.chunk_id, src.chapter) : null,
          r.sources.length > 1 ? h("details", {}, h("summary", {}, `其余 ${r.sources.length - 1} 处原文`),
            r.sources.filter((s) => s !== src).map((s) => quoteLink(s.quote, s.chunk_id, s.chapter))) : null);
      })) : h("p", { class: "muted" }, "知识库中没有两人的关系记录。"),
      h("h4", {}, `共同事件（${pair.shared_events.length}）`),
      h("ol", { class: "timeline" }, pair.shared_events.map((e) => h("li", { class: "timeline-item", dataset: { id: e.id } },
        h("span", { class: "chapter" }, `第${e.chapter}回`),
        h("button", { type: "button", class: "link", onclick: () => showRecord(e.id) }, e.title),
        e.sources[0] ? quoteLink(e.sources[0].quote, e.sources[0].chunk_id, e.sources[0].chapter) : null))),
    );
  });
  ctx.setData({ view: "pair", ...pair });
  ctx.setTitle(`${pair.a.name} — ${pair.b.name}`);
  ctx.usesGraph(true);
}
