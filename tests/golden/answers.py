"""The golden file of the offline answerer: every question of eval/questions and of the tests,
with its plan and its offline answer, so that a change of structure is proved to change no answer.

`python -m tests.golden.answers --update` writes `answers.jsonl` on purpose (review the diff);
`tests/test_golden_answers.py` fails on any difference and on a question added or removed.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "answers.jsonl"
EVAL_DIRS = (ROOT / "eval" / "questions",)
UNSEEN = ("heldout10_",)
"""Held-out files not yet measured: their answers stay out of the golden file (its diff would show
them to whoever tunes the answerer before the one measurement). heldout3 and heldout4 were
measured once (README) and are dev sets since, and so is heldout5 (measured on 959a944), and
every round up to heldout9 (heldout8 measured on b4fb23c, heldout9 on 89782df)."""
TESTS = ROOT / "tests"
ASKING = re.compile(r"[谁什么哪為为何怎几幾吗嗎呢多少？?]|是否|有没有|有沒有|讲讲|講講|说说|說說|介绍|介紹")
CJK = re.compile(r"[\u4e00-\u9fff]")
MAX_TEST_QUESTION = 60


def eval_questions() -> Iterator[tuple[str, str]]:
    """(source, question) for every line of the eval question files."""
    for directory in EVAL_DIRS:
        for path in sorted(directory.glob("*.jsonl")):
            if path.name.startswith(UNSEEN):
                continue
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    q = json.loads(line)
                    yield f"{path.relative_to(ROOT)}#{q['id']}", q["question"]


def test_questions() -> Iterator[tuple[str, str]]:
    """(source, question) for every string literal of the tests that reads as a question: CJK,
    an asking word or mark, at most `MAX_TEST_QUESTION` characters."""
    for path in sorted(TESTS.rglob("*.py")):
        if "golden" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
                if (CJK.search(text) and ASKING.search(text) and len(text) <= MAX_TEST_QUESTION
                        and "\n" not in text):
                    yield f"{path.relative_to(ROOT)}", text


def all_questions() -> list[tuple[str, str]]:
    """Each question once, with the first place it comes from."""
    seen: dict[str, str] = {}
    for source, question in [*eval_questions(), *test_questions()]:
        seen.setdefault(question, source)
    return sorted(((s, q) for q, s in seen.items()), key=lambda sq: (sq[0], sq[1]))


def build_service() -> Any:
    from core.settings import DEFAULT_BUNDLE, DEFAULT_CORPUS, Settings
    from ingest.corpus import read_corpus
    from kb.answering.service import AskService
    from kb.knowledge.bundle import load_bundle
    from providers.memory import MemoryProvider
    from retrieval.corpus import build_corpus

    corpus = build_corpus(read_corpus(DEFAULT_CORPUS), 600)
    bundle = load_bundle(DEFAULT_BUNDLE, corpus.blocks)
    provider = MemoryProvider()
    provider.load(bundle)
    return AskService(Settings(), corpus, provider, bundle=bundle)


def record(service: Any, source: str, question: str) -> dict[str, Any]:
    """What is frozen of one question: the plan and the offline answer, without timings or
    session ids."""
    from core.errors import KBError
    from kb.answering.answer_models import AskRequest

    try:
        r = service.ask(AskRequest(question=question, session_id="golden"))
    except KBError as exc:
        return {"source": source, "question": question, "error": f"{type(exc).__name__}: {exc}"}
    finally:
        service.sessions.clear()  # a MemorySessions: the harness's service has no other
    plan = r.plan.model_dump(mode="json")
    return {"source": source, "question": question, "plan": plan, "status": r.status,
            "answer": r.answer, "reason": r.reason,
            "quotes": [[q.chunk_id, q.text, q.located] for q in r.quotes],
            "stages": [[s.title, s.chapters, s.note] for s in r.stages]}


def compute(service: Any | None = None) -> list[dict[str, Any]]:
    service = service or build_service()
    return [record(service, s, q) for s, q in all_questions()]


def read_golden() -> list[dict[str, Any]]:
    return [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines() if line]


def write_golden(rows: list[dict[str, Any]]) -> None:
    GOLDEN.write_text("".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows),
                      encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="write the golden file")
    args = parser.parse_args(argv)
    rows = compute()
    if args.update:
        write_golden(rows)
        print(f"{GOLDEN.relative_to(ROOT)}: {len(rows)} questions")
        return 0
    old = {r["question"]: r for r in read_golden()}
    changed = [r["question"] for r in rows if old.get(r["question"]) != r]
    gone = sorted(set(old) - {r["question"] for r in rows})
    for q in changed:
        print(f"changed: {q}")
    for q in gone:
        print(f"removed: {q}")
    print(f"{len(changed)} changed, {len(gone)} removed of {len(rows)}")
    return 1 if changed or gone else 0


if __name__ == "__main__":
    sys.exit(main())
