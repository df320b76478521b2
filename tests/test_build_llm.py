"""`kbx build --llm`: the same build with the model extracting per block, against the loopback
OpenAI-protocol server (tests/openai_stub.py): the names discovery found go into each prompt,
replies are schema-validated, a quote that is not in its block is dropped, replies are cached
(a rebuild asks nothing), and the token cost is printed and kept in the manifest.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from books_support import few_chapters, stop_stores
from openai_stub import OpenAIStub, Recorded, Reply
from typer.testing import CliRunner

from cli.main import app
from core.books import read_manifest
from core.settings import Settings
from extract.text import segments

pytestmark = pytest.mark.falkordb
runner = CliRunner()
KNOWN = re.compile(r"已知人物（可能出现）：(.*)\n")
BAD_QUOTE = "这句话不在原文里面"


def text_of(request: Recorded) -> str:
    return request.prompt.split("原文：\n", 1)[1]


def known_of(request: Recorded) -> list[str]:
    found = KNOWN.search(request.prompt)
    return found.group(1).split("、") if found else []


def answer(request: Recorded) -> Reply:
    """People the prompt names with a sentence naming each, a relation between the first two
    whose quote holds both when the block has one, and one relation with a made-up quote."""
    text, known = text_of(request), known_of(request)
    sentences = [text[s.start:s.end] for s in segments(text)]
    people = [{"name": n, "quote": next((s for s in sentences if n in s), "")} for n in known]
    relations: list[dict[str, Any]] = []
    if len(known) >= 2:
        a, b = known[:2]
        both = next((s for s in sentences if a in s and b in s), None)
        if both:
            relations.append({"source": a, "target": b, "type": "acquaintance", "quote": both})
        relations.append({"source": a, "target": b, "type": "friend", "quote": BAD_QUOTE})
    events = [{"title": f"{known[0]}出场", "participants": known[:1], "quote": people[0]["quote"]}
              ] if people and people[0]["quote"] else []
    return Reply.json({"people": people, "events": events, "relations": relations, "states": []},
                      prompt_tokens=120, completion_tokens=30)


def env_for(data_dir: Path, stub: OpenAIStub) -> dict[str, str | None]:
    return {"KBX_DATA_DIR": str(data_dir), "FALKORDB_URL": None, "KBX_PROVIDER": None,
            "KBX_BOOK": None, "KBX_FALKORDB_LINGER": "0.5", "OPENAI_BASE_URL": stub.url,
            "OPENAI_API_KEY": "test-key", "KBX_LLM_MODEL": "stub-model", "COLUMNS": "200"}


def test_an_llm_build_prompts_with_the_discovered_names_checks_caches_and_costs(
        openai_stub: OpenAIStub, tmp_path: Path) -> None:
    openai_stub.respond_with(answer)
    data_dir = tmp_path / "data"
    corpus = few_chapters(tmp_path / "text", 2)
    env = env_for(data_dir, openai_stub)
    args = ["build", str(corpus), "--book", "llmbook", "--llm", "--price-prompt", "0.5",
            "--price-completion", "1.5"]
    try:
        first = runner.invoke(app, args, env=env)
        assert first.exit_code == 0, first.output
        asked = len(openai_stub.requests)
        blocks = [json.loads(line) for line in (data_dir / "llmbook" / "blocks" / "blocks.jsonl")
                  .read_text(encoding="utf-8").splitlines()]
        assert asked == len(blocks)  # one request per block
        discovered = {json.loads(line)["name"] for line in (
            data_dir / "llmbook" / "discovered" / "lexicon.jsonl").read_text(
                encoding="utf-8").splitlines()}
        prompted = {n for r in openai_stub.requests for n in known_of(r)}
        assert {"刘备", "关羽", "张飞"} <= prompted <= discovered
        manifest = read_manifest(Settings(data_dir=data_dir), "llmbook")
        assert manifest is not None and manifest.source == "llm"
        assert manifest.llm["calls"] == asked and manifest.llm["prompt_tokens"] == 120 * asked
        cost = (120 * asked * 0.5 + 30 * asked * 1.5) / 1000
        assert manifest.llm["cost"] == pytest.approx(cost)
        assert f"LLM: {asked} calls" in first.output and f"cost {cost:.4f}" in first.output
        relations = [json.loads(line) for line in (data_dir / "llmbook" / "bundle" /
                     "relations.jsonl").read_text(encoding="utf-8").splitlines()]
        quotes = [s["quote"] for r in relations for s in r["sources"]]
        assert quotes and BAD_QUOTE not in quotes  # the made-up quote was dropped
        again = runner.invoke(app, args, env=env)
        assert again.exit_code == 0, again.output
        assert len(openai_stub.requests) == asked  # every reply came from the cache
    finally:
        stop_stores(data_dir)


def test_llm_without_an_endpoint_is_one_line(tmp_path: Path, openai_stub: OpenAIStub) -> None:
    env = {**env_for(tmp_path / "data", openai_stub), "OPENAI_BASE_URL": None,
           "OPENAI_API_KEY": None}
    result = runner.invoke(app, ["build", str(few_chapters(tmp_path / "t", 1)), "--book", "x",
                                 "--llm"], env=env)
    assert result.exit_code == 2 and "OPENAI_BASE_URL" in result.output
    assert not (tmp_path / "data" / "x").exists()
