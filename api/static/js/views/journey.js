// A person's journey: stages as a timeline in book order, each opening to its events and passages.

import { api, resolvePerson } from "../api.js";
import { append, h, clear, $, chapterText } from "../dom.js";
import { setPanelHome, showRecord, quoteLink, sourcesList } from "../panel.js";

export async function render(args, ctx) {
  const name = args[0] || "林冲";
  const journey = await api.journey(await resolvePerson(name));
  const p = journey.person;
  const content = $("#content");
  clear(content);
  append(content, 
    h("h2", { class: "journey-title" }, `${p.name}的经历`, h("span", { class: "muted" }, ` ${journey.stages.length} 个阶段`)),
    h("ol", { class: "stages" }, journey.stages.map((stage, i) => h("li", { class: "stage", dataset: { index: i + 1 } },
      h("details", { class: "stage-box" },
        h("summary", {},
          h("span", { class: "stage-no" }, `${i + 1}`),
          h("span", { class: "stage-title" }, stage.title),
          h("span", { class: "chapters" }, chapterText(stage.chapters)),
          stage.place ? h("span", { class: "place" }, stage.place) : null,
          h("span", { class: "muted" }, ` ${stage.events.length} 事件`)),
        h("div", { class: "stage-body" },
          h("h4", {}, "事件"),
          h("ol", { class: "events" }, stage.events.map((e) => h("li", {},
            h("span", { class: "chapter" }, `第${e.chapter}回`), " ",
            h("button", { type: "button", class: "link", onclick: () => showRecord(e.id) }, e.title),
            e.turning_point ? h("span", { class: "turn" }, " 转折") : null))),
          stage.states.length ? h("p", { class: "states" }, stage.states.map((s) => `${s.kind}：${s.value}（第${s.chapter}回）`).join("；")) : null,
          h("h4", {}, "原文"),
          h("div", { class: "quotes" }, stage.sources.slice(0, 12).map((s) => quoteLink(s.quote, s.chunk_id, s.chapter))))))),
  ));
  content.hidden = false;
  setPanelHome((panel) => {
    append(panel, 
      h("h3", {}, p.name, " ", h("span", { class: "muted" }, p.aliases.join("、"))),
      p.profile ? h("p", { class: "desc" }, p.profile) : null,
      h("div", { class: "actions" }, h("a", { class: "button", href: `#/person/${encodeURIComponent(p.name)}` }, "关系图")),
      h("h4", {}, "原文"), sourcesList(p.sources));
  });
  ctx.setData({ view: "journey", ...journey });
  ctx.setTitle(`${p.name} · 经历`);
  ctx.usesGraph(false);
}
