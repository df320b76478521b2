"""Short answers (kb.answering.brevity): a two-sentence lead, at most six items, the rest counted,
and a quote never cut — on the whole book's answers."""

from __future__ import annotations

import pytest

from kb.answering.answer_models import AskRequest
from kb.answering.brevity import MAX_ITEMS
from kb.answering.service import AskService
from tests.golden.answers import build_service

pytestmark = pytest.mark.slow  # the whole book's answers


@pytest.fixture(scope="module")
def service() -> AskService:
    return build_service()  # type: ignore[no-any-return]


@pytest.mark.parametrize("question", ["李逵和宋江是什么关系？", "宋江是怎么死的？",
                                      "林冲上了梁山以后做了什么", "武松打虎用的是什么？"])
def test_a_short_answer_keeps_its_quotes_whole(service: AskService, question: str) -> None:
    r = service.ask(AskRequest(question=question))
    lines = r.answer.splitlines()
    assert r.status == "answered"
    assert sum(line.startswith("· ") for line in lines) <= MAX_ITEMS
    assert all(f"「{q.text}」〔{q.chunk_id}〕" in r.answer for q in r.quotes)  # every quote whole
    assert all(q.located for q in r.quotes)
    lead = lines[0]
    outside = lead
    for q in r.quotes:
        outside = outside.replace(f"「{q.text}」〔{q.chunk_id}〕", "")
    assert outside.count("。") <= 2, lead
