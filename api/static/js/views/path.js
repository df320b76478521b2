// The shortest relation chain between two people.

import { api, resolvePerson } from "../api.js";
import { append, h, $, chapterText } from "../dom.js";
import { mountGraph, nodeElement, edgeElement } from "../graph.js";
import { setPanelHome, showRecord, quoteLink, typeChip, personLink } from "../panel.js";
import { twoNamesForm } from "../forms.js";
import { hub } from "../book.js";

export async function render(args, ctx) {
  const [a, b] = [args[0] || hub(0), args[1] || hub(2)];
  twoNamesForm("path", a, b, "找路径");
  const result = await api.path(await resolvePerson(a), await resolvePerson(b));
  const names = Object.fromEntries(result.people.map((p) => [p.id, p.name]));
  names[result.source.id] = result.source.name;
  names[result.target.id] = result.target.name;
  const ends = new Set([result.source.id, result.target.id]);
  const people = result.found ? result.people : [result.source, result.target];
  mountGraph($("#graph"), [
    ...people.map((p, i) => ({ ...nodeElement({ id: p.id, label: p.name, group: p.group }, ends.has(p.id) ? ["center"] : []),
      position: { x: i * 180, y: (i % 2) * 30 } })),
    ...result.hops.flatMap((hop) => hop.relations.map((r) => edgeElement(r))),
  ], { name: "preset" },
  { edge: (d) => showRecord(d.id) });

  setPanelHome((panel) => {
    append(panel, h("h3", {}, personLink(result.source.id, result.source.name), " → ", personLink(result.target.id, result.target.name)));
    if (!result.found) {
      append(panel, h("p", { class: "muted path-none" }, `在 ${result.max_hops} 步之内找不到两人之间的关系链。`));
      return;
    }
    append(panel, h("p", { class: "path-summary" }, `${result.hops.length} 步：${result.people.map((p) => p.name).join(" → ")}`),
      h("ol", { class: "hops" }, result.hops.map((hop) => h("li", { class: "hop" },
        h("div", { class: "hop-head" }, `${names[hop.source]} — ${names[hop.target]}`),
        hop.relations.map((r) => h("div", { class: "hop-relation" },
          typeChip(r.type, r.label), " ",
          h("button", { type: "button", class: "link", onclick: () => showRecord(r.id) }, chapterText(r.chapters) || r.id),
          r.sources[0] ? quoteLink(r.sources[0].quote, r.sources[0].chunk_id, r.sources[0].chapter) : null))))));
  });
  ctx.setData({ view: "path", ...result });
  ctx.setTitle(`${result.source.name} → ${result.target.name}`);
  ctx.usesGraph(true);
}
