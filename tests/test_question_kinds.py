"""The question-kind contract: every registered kind answers the three questions of its row and
not its near miss (tests/kind_cases.py), on a small book; the registry's order is its priorities;
every kind is in the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.settings import DEFAULT_CORPUS, Settings
from ingest.corpus import read_corpus
from kb.answering.answer_models import AskRequest
from kb.answering.kinds import registry
from kb.answering.service import AskService
from kb.knowledge.bundle import load_bundle
from providers.memory import MemoryProvider
from retrieval.corpus import build_corpus
from tests.kind_cases import KIND_CASES, NOT_ON_THE_FIXTURE

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "kb_kinds"


@pytest.fixture(scope="module")
def service() -> AskService:
    corpus = build_corpus(read_corpus(DEFAULT_CORPUS, set(range(7, 12))), 600)
    bundle = load_bundle(FIXTURE, corpus.blocks)
    provider = MemoryProvider()
    provider.load(bundle)
    return AskService(Settings(), corpus, provider, bundle=bundle)


def _answered_by(service: AskService, question: str) -> str:
    response = service.ask(AskRequest(question=question))
    assert all(q.located for q in response.quotes), question
    return str(response.trace["answered_by"])


@pytest.mark.parametrize("kind", sorted(KIND_CASES))
def test_the_kind_answers_its_questions_and_not_its_near_miss(service: AskService,
                                                              kind: str) -> None:
    questions, near_miss = KIND_CASES[kind]
    assert [_answered_by(service, q) for q in questions] == [kind] * 3
    assert _answered_by(service, near_miss) != kind, near_miss


def test_every_kind_has_its_row() -> None:
    names = {k.name for k in registry()}
    assert names == set(KIND_CASES) | set(NOT_ON_THE_FIXTURE)


def test_the_registry_is_in_priority_order_and_ends_with_the_fact_answer() -> None:
    kinds = registry()
    assert [k.priority for k in kinds] == sorted(k.priority for k in kinds)
    assert kinds[0].name == "refusal" and kinds[-1].name == "fact"
