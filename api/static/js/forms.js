// The two-name and question forms above the pair, path and ask views.

import { append, h, clear, $ } from "./dom.js";
import { attachSuggest } from "./suggest.js";
import { hub } from "./book.js";

export function twoNamesForm(view, a, b, label) {
  const form = $("#form");
  clear(form);
  const inA = h("input", { type: "search", id: "name-a", value: a || "", autocomplete: "off", placeholder: "人物甲", "aria-label": "first person" });
  const inB = h("input", { type: "search", id: "name-b", value: b || "", autocomplete: "off", placeholder: "人物乙", "aria-label": "second person" });
  const go = () => {
    if (inA.value.trim() && inB.value.trim()) {
      location.hash = `#/${view}/${encodeURIComponent(inA.value.trim())}/${encodeURIComponent(inB.value.trim())}`;
    }
  };
  const wrapA = h("div", { class: "search" }, inA);
  const wrapB = h("div", { class: "search" }, inB);
  append(form, wrapA, h("span", { class: "sep" }, "—"), wrapB, h("button", { type: "button", id: "go", onclick: go }, label));
  attachSuggest(inA, () => inB.focus());
  attachSuggest(inB, go);
  form.hidden = false;
}

export function questionForm(question, onAsk) {
  const form = $("#form");
  clear(form);
  const input = h("input", { type: "search", id: "question", value: question || "", autocomplete: "off",
    placeholder: `问一个问题：${hub(0)}和${hub(1)}是什么关系？`, "aria-label": "question", class: "wide" });
  const go = () => input.value.trim() && onAsk(input.value.trim());
  input.addEventListener("keydown", (ev) => { if (ev.key === "Enter") go(); });
  append(form, h("div", { class: "search wide" }, input), h("button", { type: "button", id: "ask-go", onclick: go }, "问"));
  form.hidden = false;
  return input;
}
