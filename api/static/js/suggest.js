// Suggestions as you type: names, aliases, nicknames and star names, in either script.

import { api } from "./api.js";
import { append, h, clear } from "./dom.js";

const KIND_LABEL = { name: "", alias: "别名", star: "星号" };

export function attachSuggest(input, onPick) {
  const wrap = input.parentElement;
  wrap.classList.add("suggest-wrap");
  const list = h("ul", { class: "suggestions", role: "listbox", hidden: true });
  wrap.append(list);
  let items = [];
  let active = -1;
  let timer = null;
  let latest = 0;

  function close() {
    list.hidden = true;
    active = -1;
  }

  function render() {
    clear(list);
    items.forEach((m, i) => {
      const kind = KIND_LABEL[m.kind] ? h("span", { class: "kind" }, `${KIND_LABEL[m.kind]} ${m.matched}`) : null;
      const li = h("li", {
        role: "option", class: i === active ? "active" : "", dataset: { id: m.id },
        onmousedown: (ev) => { ev.preventDefault(); pick(i); },
      }, h("b", {}, m.name), kind,
        h("span", { class: "meta" }, [m.star, m.group, m.first_chapter != null ? `第${m.first_chapter}回` : null]
          .filter(Boolean).join(" · ")));
      append(list, li);
    });
    list.hidden = items.length === 0;
  }

  function pick(i) {
    const m = items[i];
    if (!m) return;
    input.value = m.name;
    close();
    onPick(m);
  }

  async function lookup() {
    const text = input.value.trim();
    const ticket = ++latest;
    if (!text) { items = []; render(); return; }
    try {
      const found = await api.suggest(text, 8);
      if (ticket !== latest) return;
      items = found;
      active = items.length ? 0 : -1;
      render();
    } catch (err) {
      if (ticket === latest) { items = []; render(); }
    }
  }

  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(lookup, 90);
  });
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowDown" && items.length) { active = (active + 1) % items.length; render(); ev.preventDefault(); }
    else if (ev.key === "ArrowUp" && items.length) { active = (active - 1 + items.length) % items.length; render(); ev.preventDefault(); }
    else if (ev.key === "Enter") {
      ev.preventDefault();
      if (!list.hidden && active >= 0) pick(active);
      else if (input.value.trim()) onPick({ id: null, name: input.value.trim() });
    } else if (ev.key === "Escape") close();
  });
  input.addEventListener("blur", () => setTimeout(close, 100));
}
