// Ask: the service's answer as it is, its citations (each opens the passage), the quote checks,
// the records the answer used highlighted as a graph, and the trace in a collapsible panel.

import { api } from "../api.js";
import { append, h, $ } from "../dom.js";
import { mountGraph, nodeElement, edgeElement, destroyGraph } from "../graph.js";
import { setPanelHome, showRecord, quoteLink } from "../panel.js";
import { openSource } from "../source.js";
import { questionForm } from "../forms.js";

const USED_FALLBACK = 5;

let sessionId = null;
const CITED = /「([^」]{1,200})」〔(ch\d{3}_chunk_\d{3})〕|〔(ch\d{3}_chunk_\d{3})〕/g;

// The answer text with each 「quote」〔block〕 turned into a link to that passage.
function answerText(text) {
  const parts = [];
  let at = 0;
  for (const m of text.matchAll(CITED)) {
    parts.push(text.slice(at, m.index));
    const quote = m[1] || null;
    const chunk = m[2] || m[3];
    parts.push(quote ? h("span", { class: "cited" }, `「${quote}」`) : null);
    parts.push(h("button", { type: "button", class: "cite", dataset: { chunk }, onclick: () => openSource(chunk, quote) }, `〔${chunk}〕`));
    at = m.index + m[0].length;
  }
  parts.push(text.slice(at));
  return parts;
}

function table(headers, rows) {
  return h("table", { class: "trace-table" }, h("thead", {}, h("tr", {}, headers.map((x) => h("th", {}, x)))),
    h("tbody", {}, rows.map((r) => h("tr", {}, r.map((c) => h("td", {}, c))))));
}

function channel(c, name) {
  const hit = c.channels[name];
  return hit ? `#${hit.rank} ${hit.score.toFixed(2)} ${hit.matched_terms.slice(0, 8).join(" ")}` : "—";
}

function tracePanel(r) {
  const t = r.trace || {};
  const lx = t.lexical || {};
  const query = lx.query || {};
  return h("details", { class: "trace", id: "trace" },
    h("summary", {}, `检索过程（${t.elapsed_ms != null ? `${t.elapsed_ms} ms` : ""}）`),
    h("h4", {}, "查询"),
    h("p", {}, h("code", {}, t.query || "")),
    t.expansions && t.expansions.length ? h("p", {}, "扩展：", t.expansions.join("、")) : null,
    query.terms ? h("div", {}, Object.entries(query.terms).map(([ch, terms]) => h("p", { class: "terms" }, h("b", {}, `${ch}：`), terms.join(" ")))) : null,
    h("h4", {}, "计划用到的记录"),
    h("p", { class: "plan-records" }, (t.plan_records || []).map((id) => h("button", { type: "button", class: "link", onclick: () => showRecord(id) }, id))),
    h("h4", {}, "证据排序（图谱指引 + 词法）"),
    table(["段落", "来源", "打包"], (t.ranking || []).map((x) => [
      h("button", { type: "button", class: "link", onclick: () => openSource(x.chunk_id) }, x.chunk_id), x.origin, x.decision || ""])),
    h("h4", {}, `词法排序：BM25 两通道 + RRF（k=${lx.rrf_k ?? ""}），预算 ${lx.budget ?? ""}，最多 ${lx.max_blocks ?? ""} 段，策略 ${lx.policy ?? ""}`),
    table(["融合", "段落", "分数", "ngram", "unigram", "打包"], (lx.candidates || []).map((c) => [
      `#${c.fused_rank}`, h("button", { type: "button", class: "link", onclick: () => openSource(c.chunk_id) }, c.chunk_id),
      c.fused_score.toFixed(4), channel(c, "ngram"), channel(c, "unigram"), c.decision])));
}

async function answer(question, ctx) {
  const r = await api.ask(question, sessionId);
  sessionId = r.session_id;
  // The records the answer is built from are the plan's; the packed knowledge beyond them is
  // context the answer may not use (a hub's question packs dozens), so it stands in only when the
  // plan chose none, and then only its best few.
  const planned = r.trace.plan_records || [];
  const used = [...new Set(planned.length ? planned : r.context.knowledge.slice(0, USED_FALLBACK).map((k) => k.id))];
  let graph = { nodes: [], edges: [], records: [], missing: [] };
  if (used.length) graph = await api.subgraph(used.slice(0, 200));
  const people = new Set(r.plan.person_ids);
  if (graph.nodes.length) {
    mountGraph($("#graph"), [
      ...graph.nodes.map((n) => nodeElement(n, ["used", ...(people.has(n.id) ? ["center"] : [])])),
      ...graph.edges.map((e) => edgeElement(e, ["used"])),
    ], { name: "cose", animate: false, randomize: false, nodeRepulsion: () => 6000, idealEdgeLength: () => 70, numIter: 400 },
    { node: (d) => (d.kind === "event" ? showRecord(d.id) : null), edge: (d) => (d.kind === "relation" ? showRecord(d.id) : null) });
  } else {
    destroyGraph();
    $("#graph").hidden = true;
  }
  const firstQuote = (chunk) => (r.quotes.find((q) => q.chunk_id === chunk) || {}).text || null;
  setPanelHome((panel) => {
    append(panel, 
      h("div", { class: `answer-status ${r.status}` }, r.status === "answered" ? "已回答" : "证据不足", ` · ${r.mode} · ${r.plan.kind}`,
        r.plan.people.length ? ` · ${r.plan.people.join("、")}` : ""),
      r.reason ? h("p", { class: "reason" }, r.reason) : null,
      h("div", { class: "answer", id: "answer" }, answerText(r.answer)),
      r.stages.length ? h("div", { class: "stage-notes" }, h("h4", {}, "阶段"), h("ol", {}, r.stages.map((s) => h("li", {}, h("b", {}, s.title), ` ${s.note}`)))) : null,
      h("h4", {}, `引用（${r.citations.length}）`),
      h("ul", { class: "citations" }, r.citations.map((c) => h("li", {},
        h("button", { type: "button", class: "citation", dataset: { chunk: c.chunk_id }, onclick: () => openSource(c.chunk_id, firstQuote(c.chunk_id)) },
          `${c.chunk_id} · 第${c.chapter}回`)))),
      h("h4", {}, `引文核对（${r.quotes.filter((q) => q.located).length}/${r.quotes.length} 处在所引段落中找到）`),
      h("ul", { class: "quote-checks" }, r.quotes.map((q) => h("li", { class: q.located ? "located" : "not-located" },
        h("span", { class: "check" }, q.located ? "✓" : "✗"), quoteLink(q.text, q.chunk_id, null)))),
      h("p", { class: "muted" }, `答案用到的记录 ${graph.records.length} 条，图中以红色标出。`),
      tracePanel(r),
      h("p", {}, h("button", { type: "button", id: "new-session", onclick: () => { sessionId = null; location.hash = "#/ask"; } }, "新对话")),
    );
  });
  ctx.setData({ view: "ask", question, response: r, subgraph: graph });
  ctx.usesGraph(graph.nodes.length > 0);
}

export async function render(args, ctx) {
  const question = args.join("/");
  questionForm(question, (q) => { location.hash = `#/ask/${encodeURIComponent(q)}`; });
  ctx.setTitle("问答");
  if (!question) {
    destroyGraph();
    $("#graph").hidden = true;
    setPanelHome((panel) => append(panel, h("p", { class: "muted" }, "输入问题，答案的每处引文都可打开原文。")));
    ctx.setData({ view: "ask" });
    ctx.usesGraph(false);
    return;
  }
  await answer(question, ctx);
}
