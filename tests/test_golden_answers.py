"""The offline answerer's behaviour is frozen: every question of eval/ and of the tests keeps its
plan and its answer (tests/golden/answers.jsonl). A change that means to change answers
regenerates the file on purpose (`python -m tests.golden.answers --update`) and the diff is
reviewed with it."""

from __future__ import annotations

import pytest

from tests.golden.answers import all_questions, compute, read_golden

pytestmark = pytest.mark.slow


def test_the_golden_file_holds_every_question() -> None:
    golden = {r["question"] for r in read_golden()}
    asked = {q for _, q in all_questions()}
    assert asked - golden == set(), "new questions: run python -m tests.golden.answers --update"
    assert golden - asked == set(), "questions gone: run python -m tests.golden.answers --update"


def test_every_plan_and_answer_is_unchanged() -> None:
    golden = {r["question"]: r for r in read_golden()}
    changed = [(row, golden.get(row["question"])) for row in compute()
               if golden.get(row["question"]) != row]
    assert not changed, "\n".join(
        f"{row['question']}\n  was: {old}\n  now: {row}" for row, old in changed[:5]) + (
        f"\n… {len(changed)} questions changed; if intended: python -m tests.golden.answers "
        "--update, and review the diff")
