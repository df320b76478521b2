"""The LLM paths against a real (tiny) model: the plumbing, not the content.

SmolLM2-135M-Instruct writes poor Chinese and invents quotes; what must hold is that every reply
goes through JSON mode and pydantic validation, that a reply failing validation gets its repair
turn and then a handled error (the offline answer or a counted failed block), that timeouts are
retried and reported, that the extraction cache makes a rerun free, that quote checks flag
invented quotes, and that `kbx ask` still returns a well-formed answer. Each test writes what
happened to test-artifacts/llm/ (README quotes it).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from llm_support import LocalModel
from pydantic import BaseModel, Field

from core.errors import ExtractionError, LLMError
from core.llm import ChatClient
from core.settings import REPO_ROOT, Settings
from core.text import normalize
from ingest.chunking import Block, chunk_corpus
from ingest.corpus import read_corpus
from kb.answering.answer_models import AskResponse
from kb.answering.quotes import check_quote
from kb.knowledge.bundle import load_bundle

REPORT = REPO_ROOT / "test-artifacts" / "llm"
QUESTIONS = ["鲁智深和林冲怎么认识？", "武松在景阳冈做了什么？"]


def record(name: str, data: Any) -> None:
    REPORT.mkdir(parents=True, exist_ok=True)
    (REPORT / f"{name}.json").write_text(json.dumps(data, ensure_ascii=False, indent=2),
                                         encoding="utf-8")
    print(f"\n{name}: {json.dumps(data, ensure_ascii=False)[:1500]}")


def client_settings(model: LocalModel, **overrides: Any) -> Settings:
    env = model.env()
    fields: dict[str, Any] = {"llm_model": model.model,
                              "llm_max_tokens": int(env["KBX_LLM_MAX_TOKENS"]),
                              "llm_timeout": 300, "llm_retries": 1, **overrides}
    return Settings(OPENAI_BASE_URL=env["OPENAI_BASE_URL"], OPENAI_API_KEY="local-key", **fields)


BLOCKS_BY_ID: dict[str, Block] = {}


@pytest.fixture(scope="module")
def blocks() -> dict[str, str]:
    BLOCKS_BY_ID.update({b.id: b for b in chunk_corpus(read_corpus(Settings().corpus), 600)})
    return {b.id: b.text for b in BLOCKS_BY_ID.values()}


class Meeting(BaseModel):
    """A schema the model must fill exactly: two people, a chapter in range, a short verb."""

    people: list[str] = Field(min_length=2, max_length=2)
    chapter: int = Field(ge=1, le=120)
    verb: str = Field(min_length=1, max_length=4)


def test_json_mode_and_schema_validation_failures_are_handled(local_model: LocalModel) -> None:
    """Each reply is JSON (the server constrains it to JSON in json_object mode); a reply that
    does not fit the schema gets one repair turn, then ExtractionError with the raw reply."""
    outcomes = []
    with ChatClient(client_settings(local_model)) as client:
        for prompt in ["林冲和鲁智深在第七回结义。用 JSON 回答：people（两人）、chapter（回数）、"
                       "verb（动词）。",
                       "Reply with JSON: people (two names), chapter (1-120), verb (max 4 chars). "
                       "Lin Chong met Lu Zhishen in chapter 7 and they became sworn brothers."]:
            try:
                result = client.complete_json([{"role": "user", "content": prompt}], Meeting)
                outcomes.append({"valid": True, "value": result.value.model_dump(),
                                 "calls": result.usage.calls})
            except ExtractionError as exc:
                assert exc.raw, "a failed validation keeps the raw reply"
                outcomes.append({"valid": False, "error": str(exc)[:300], "raw": exc.raw[:300]})
        usage = client.usage
    assert usage.calls >= len(outcomes) and usage.prompt_tokens > 0
    for outcome in outcomes:
        if outcome["valid"]:
            Meeting.model_validate(outcome["value"])
    record("json_mode", {"outcomes": outcomes, "calls": usage.calls,
                         "prompt_tokens": usage.prompt_tokens,
                         "completion_tokens": usage.completion_tokens})


@pytest.mark.parametrize("question", QUESTIONS)
def test_kbx_ask_through_the_local_model_stays_well_formed(local_model: LocalModel,
                                                           blocks: dict[str, str],
                                                           question: str) -> None:
    started = time.perf_counter()
    result = local_model.kbx("ask", question, "--json")
    response = AskResponse.model_validate_json(result.stdout)
    seconds = time.perf_counter() - started
    assert response.answer.strip()
    assert {c.chunk_id for c in response.citations} <= {q.chunk_id for q in response.quotes}
    invented = []
    for check in response.quotes:  # the service's check agrees with an independent one
        text = blocks.get(check.chunk_id, "")
        really = bool(normalize(check.text)) and normalize(check.text) in normalize(text)
        assert check.located == really, check
        if not really:
            invented.append(check.model_dump())
    if invented:
        assert response.reason and "有引文未能在所引段落中找到" in response.reason
    if response.mode == "offline":  # the model's reply failed: the offline answer stands in
        assert response.reason and "LLM 不可用" in response.reason
    record(f"ask_{QUESTIONS.index(question) + 1}", {
        "question": question, "seconds": round(seconds, 1), "mode": response.mode,
        "status": response.status, "reason": response.reason, "answer": response.answer[:400],
        "quotes": len(response.quotes), "located": sum(q.located for q in response.quotes),
        "invented": invented[:5]})


class Quoted(BaseModel):
    quote: str = Field(min_length=2)


def test_quote_checks_reject_what_the_model_invents(local_model: LocalModel,
                                                    blocks: dict[str, str]) -> None:
    """The model is asked to copy one sentence of a block; the answer's quote check (the one
    `/ask` runs) accepts it only when it is really in the block."""
    chunk_id = "ch007_chunk_004"
    prompt = (f"原文：\n{blocks[chunk_id]}\n\n从上面的原文中逐字摘录一句话（不改字），"
              '只输出 JSON：{"quote": "..."}')
    checks = []
    with ChatClient(client_settings(local_model)) as client:
        for _ in range(2):
            try:
                quote = client.complete_json([{"role": "user", "content": prompt}], Quoted,
                                             temperature=0.7).value.quote
            except ExtractionError as exc:
                checks.append({"error": str(exc)[:200]})
                continue
            check = check_quote(quote, chunk_id, lambda c: BLOCKS_BY_ID.get(c))
            really = normalize(quote) in normalize(blocks[chunk_id])
            assert check.located == really
            checks.append({"quote": quote[:120], "located": check.located})
    record("quote_checks", checks)


def test_kbx_extract_llm_chapter_9_validates_caches_and_keeps_only_verbatim_quotes(
        local_model: LocalModel) -> None:
    first_started = time.perf_counter()
    first = json.loads(local_model.kbx("extract", "--llm", "--chapters", "9", "--json").stdout)
    first_seconds = time.perf_counter() - first_started
    counters = first["counters"]
    assert counters["blocks"] > 0
    second_started = time.perf_counter()
    second = json.loads(local_model.kbx("extract", "--llm", "--chapters", "9", "--json").stdout)
    second_seconds = time.perf_counter() - second_started
    answered = counters["blocks"] - counters.get("blocks_failed", 0)
    assert second["counters"].get("blocks_cached", 0) == answered  # the rerun is free
    assert second["counters"].get("blocks_failed", 0) == counters.get("blocks_failed", 0)
    # whatever was kept validates as a bundle: every quote verbatim and unique in its chapter
    merged = load_bundle(Path(first["bundle_dir"]),
                         chunk_corpus(read_corpus(Settings().corpus), 600))
    record("extract_ch9", {"first_run_seconds": round(first_seconds, 1),
                           "rerun_seconds": round(second_seconds, 1),
                           "first": counters, "rerun": second["counters"],
                           "merged": merged.counts()})


def test_timeouts_are_retried_then_reported(local_model: LocalModel) -> None:
    settings = client_settings(local_model, llm_max_tokens=8)
    client = ChatClient(settings, timeout=0.05, retries=2, backoff=0.01)
    started = time.perf_counter()
    with client, pytest.raises(LLMError) as failed:
        client.complete_json([{"role": "user", "content": "写一首关于林冲的长诗，用 JSON。"}], Meeting)
    assert "after 3 attempts" in str(failed.value) and "timeout" in str(failed.value)
    record("timeouts", {"error": str(failed.value),
                        "seconds": round(time.perf_counter() - started, 2)})
