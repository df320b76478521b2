// The source viewer: a block's text with the quote highlighted, its chapter and id, and the
// blocks before and after it.

import { api } from "./api.js";
import { append, h, clear, $ } from "./dom.js";
import { showError } from "./status.js";

let current = null;

export function closeSource() {
  const box = $("#source");
  box.hidden = true;
  clear(box);
  current = null;
}

function marked(text, spans) {
  const parts = [];
  let at = 0;
  for (const span of spans) {
    if (span.start < at) continue;
    parts.push(text.slice(at, span.start));
    parts.push(h("mark", {}, text.slice(span.start, span.end)));
    at = span.end;
  }
  parts.push(text.slice(at));
  return parts;
}

export async function openSource(chunkId, quote) {
  const box = $("#source");
  let block;
  try {
    block = await api.chunk(chunkId, quote || null);
  } catch (err) {
    showError(err);
    return;
  }
  current = { id: block.id, quote: quote || null };
  clear(box);
  const found = !quote || block.highlights.length > 0;
  append(box, 
    h("div", { class: "source-head" },
      h("div", {},
        h("div", { class: "source-title" }, block.chapter_title),
        h("div", { class: "source-id" }, `${block.id} · 第${block.chapter}回 · 第${block.index}段`)),
      h("button", { type: "button", class: "close", title: "close", "aria-label": "close source", onclick: closeSource }, "✕")),
    quote ? h("div", { class: found ? "source-quote" : "source-quote missing" },
      found ? `引文：${quote}` : `引文不在此段：${quote}`) : null,
    h("div", { class: "source-text" }, marked(block.text, block.highlights)),
    h("div", { class: "source-nav" },
      h("button", { type: "button", class: "prev", disabled: !block.previous,
        onclick: () => openSource(block.previous, quote) }, "◀ 上一段"),
      h("span", { class: "source-pos" }, block.id),
      h("button", { type: "button", class: "next", disabled: !block.next,
        onclick: () => openSource(block.next, quote) }, "下一段 ▶")),
  );
  box.hidden = false;
  box.dataset.chunk = block.id;
  const mark = box.querySelector("mark");
  if (mark) mark.scrollIntoView({ block: "center" });
}

export function sourceState() {
  return current;
}

document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && current) closeSource();
});
