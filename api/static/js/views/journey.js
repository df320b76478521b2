// A person's journey: stages as a timeline in book order, each opening to its events and passages.
// The service sends each stage's key events with their quotes and counts the rest (a hub such as
// the band's leader has hundreds); "more" pages the rest in from the stage's own endpoint.

import { api, resolvePerson } from "../api.js";
import { append, h, clear, $, chapterText } from "../dom.js";
import { setPanelHome, showRecord, quoteLink, sourcesList } from "../panel.js";
import { hub } from "../book.js";

const MAX_QUOTES = 12;
// The store keeps state kinds as English keys; the reader sees the words of the page.
const STATE_KIND = { status: "状态", title: "身份", place: "所在", possession: "持有" };

function eventItem(e) {
  return h("li", {},
    h("span", { class: "chapter" }, `第${e.chapter}回`), " ",
    h("button", { type: "button", class: "link", onclick: () => showRecord(e.id) }, e.title),
    e.turning_point ? h("span", { class: "turn" }, " 转折") : null);
}

function stageQuotes(events) {
  const quotes = events.flatMap((e) => e.sources || []);
  return quotes.slice(0, MAX_QUOTES).map((s) => quoteLink(s.quote, s.chunk_id, s.chapter));
}

/** The key events are listed first; "more" replaces the list with the stage's events in book
 * order, a page at a time, so the reader sees every event without the first paint carrying them. */
function moreButton(personId, number, stage, list) {
  if (!stage.other_events) return null;
  let offset = 0;
  let shown = false;
  const button = h("button", { type: "button", class: "more" }, `全部 ${stage.events.length + stage.other_events} 事件`);
  button.onclick = async () => {
    button.disabled = true;
    const page = await api.stageEvents(personId, number, offset);
    if (!shown) { clear(list); shown = true; }
    append(list, ...page.events.map(eventItem));
    offset = page.offset + page.events.length;
    if (offset < page.total) {
      button.textContent = `更多（还有 ${page.total - offset}）`;
      button.disabled = false;
    } else {
      button.remove();
    }
  };
  return button;
}

export async function render(args, ctx) {
  const name = args[0] || hub(0);
  const journey = await api.journey(await resolvePerson(name));
  const p = journey.person;
  const content = $("#content");
  clear(content);
  append(content,
    h("h2", { class: "journey-title" }, `${p.name}的经历`, h("span", { class: "muted" }, ` ${journey.stages.length} 个阶段`)),
    h("ol", { class: "stages" }, journey.stages.map((stage, i) => {
      const list = h("ol", { class: "events" }, stage.events.map(eventItem));
      const total = stage.events.length + stage.other_events;
      return h("li", { class: "stage", dataset: { index: i + 1 } },
        h("details", { class: "stage-box" },
          h("summary", {},
            h("span", { class: "stage-no" }, `${i + 1}`),
            h("span", { class: "stage-title" }, stage.title),
            h("span", { class: "chapters" }, chapterText(stage.chapters)),
            stage.place ? h("span", { class: "place" }, stage.place) : null,
            h("span", { class: "muted" }, ` ${total} 事件`)),
          h("div", { class: "stage-body" },
            h("h4", {}, "事件"),
            list,
            moreButton(p.id, i + 1, stage, list),
            stage.states.length ? h("p", { class: "states" }, stage.states.map((s) => `${STATE_KIND[s.kind] || s.kind}：${s.value}（第${s.chapter}回）`).join("；")) : null,
            h("h4", {}, "原文"),
            h("div", { class: "quotes" }, stageQuotes(stage.events)))));
    })),
  );
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
