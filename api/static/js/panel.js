// The side panel: the view's own summary, or one record (relation, event, person, state) with
// its chapters and quotes; every quote opens the source viewer.

import { api } from "./api.js";
import { append, h, clear, $, chapterText } from "./dom.js";
import { typeColor } from "./graph.js";
import { openSource } from "./source.js";
import { showError } from "./status.js";

let home = null;

export function setPanelHome(render) {
  home = render;
  showHome();
}

export function showHome() {
  const panel = $("#panel");
  clear(panel);
  panel.dataset.mode = "home";
  if (home) home(panel);
}

export function quoteLink(quote, chunkId, chapter) {
  return h("button", {
    type: "button", class: "quote", dataset: { chunk: chunkId || "" }, disabled: !chunkId,
    title: "open the passage", onclick: () => chunkId && openSource(chunkId, quote),
  }, h("span", { class: "quote-text" }, `「${quote}」`),
  h("span", { class: "ref" }, [chunkId, chapter != null ? `第${chapter}回` : null].filter(Boolean).join(" · ")));
}

export function sourcesList(sources) {
  if (!sources || sources.length === 0) return h("p", { class: "muted" }, "（无原文引文）");
  return h("div", { class: "quotes" }, sources.map((s) => quoteLink(s.quote, s.chunk_id, s.chapter)));
}

export function typeChip(type, label) {
  return h("span", { class: "type-chip", style: `--c:${typeColor(type)}` }, label || type);
}

export function personLink(id, name) {
  return h("a", { href: `#/person/${encodeURIComponent(name || id)}`, class: "person-link" }, name || id);
}

function linkedList(linked) {
  const items = linked.filter((l) => l.kind !== "person");
  if (!items.length) return null;
  return h("div", { class: "linked" }, h("h4", {}, "相关记录"),
    h("ul", {}, items.map((l) => h("li", {},
      h("button", { type: "button", class: "link", onclick: () => showRecord(l.id) },
        `${l.chapter != null ? `第${l.chapter}回 ` : ""}${l.title}`),
      l.role ? h("span", { class: "muted" }, ` ${l.role}`) : null))));
}

function nameMap(view) {
  const names = {};
  for (const l of view.linked) if (l.kind === "person") names[l.id] = l.title;
  if (view.kind === "person") names[view.record.id] = view.record.name;
  return names;
}

function recordBody(view) {
  const r = view.record;
  const names = nameMap(view);
  const who = (id) => personLink(id, names[id]);
  switch (view.kind) {
    case "relation":
      return [
        h("h3", {}, who(r.source), r.directed ? " → " : " — ", who(r.target)),
        h("p", {}, typeChip(r.type, r.label), " ", h("span", { class: "chapters" }, chapterText(r.chapters))),
        r.description ? h("p", { class: "desc" }, r.description) : null,
      ];
    case "event":
      return [
        h("h3", {}, r.title),
        h("p", { class: "chapters" }, `第${r.chapter}回`, r.place ? ` · ${r.place}` : "", r.turning_point ? " · 转折" : ""),
        h("p", { class: "participants" }, r.participants.map((p) =>
          h("span", { class: "participant" }, who(p.person), p.role && p.role !== "participant" ? `（${p.role}）` : ""))),
        r.summary ? h("p", { class: "desc" }, r.summary) : null,
      ];
    case "person":
      return [
        h("h3", {}, r.name, " ", h("span", { class: "muted" }, r.aliases.join("、"))),
        h("p", { class: "chapters" }, [r.group, r.first_chapter != null ? `初见第${r.first_chapter}回` : null].filter(Boolean).join(" · ")),
        r.profile ? h("p", { class: "desc" }, r.profile) : null,
      ];
    case "state":
      return [
        h("h3", {}, who(r.person), ` ${r.kind}：${r.value}`),
        h("p", { class: "chapters" }, `自第${r.chapter}回`, r.until_chapter != null ? ` 至第${r.until_chapter}回` : ""),
        r.description ? h("p", { class: "desc" }, r.description) : null,
      ];
    default:
      return [h("h3", {}, r.title || r.id), r.summary ? h("p", { class: "desc" }, r.summary) : null];
  }
}

export async function showRecord(id) {
  let view;
  try {
    view = await api.record(id);
  } catch (err) {
    showError(err);
    return null;
  }
  const panel = $("#panel");
  clear(panel);
  panel.dataset.mode = "record";
  panel.dataset.record = id;
  append(panel, 
    h("div", { class: "panel-head" },
      h("button", { type: "button", class: "back", onclick: showHome }, "← 返回"),
      h("span", { class: "kind-tag" }, view.kind), h("code", { class: "record-id" }, id)),
    h("div", { class: "record" }, recordBody(view)),
    h("h4", {}, "原文"), sourcesList(view.sources),
    linkedList(view.linked),
  );
  return view;
}
