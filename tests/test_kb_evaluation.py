"""The pairs and journeys evaluation (kb.knowledge.evaluation) on the curated whole book."""

from __future__ import annotations

import pytest

from core.settings import DEFAULT_CORPUS
from ingest.chunking import chunk_corpus
from ingest.corpus import read_corpus
from ingest.locate import QuoteError, QuoteLocator
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.evaluation import JourneyCase, PairCase, judge_journey, judge_pair
from kb.knowledge.journey import journey_of
from providers.memory import MemoryProvider

pytestmark = pytest.mark.slow  # a quote locator over the whole book


@pytest.fixture(scope="module")
def provider(kb_curated_bundle: KnowledgeBundle) -> MemoryProvider:
    memory = MemoryProvider()
    memory.load(kb_curated_bundle)
    return memory


@pytest.fixture(scope="module")
def locator() -> QuoteLocator:
    return QuoteLocator(chunk_corpus(read_corpus(DEFAULT_CORPUS), 600))


def _block_of(locator: QuoteLocator):  # type: ignore[no-untyped-def]
    def block_of(chapter: int, quote: str) -> str | None:
        try:
            return locator.locate(quote, chapter).chunk_id
        except QuoteError:
            return None
    return block_of


SWORN = {"id": "p1", "a": "林冲", "b": "鲁智深", "relation_types": ["sworn_brothers"],
         "begins_chapter": 7, "shared_event": {"chapter": 9, "words": ["野猪林"]}}


def test_a_right_pair(provider: MemoryProvider, locator: QuoteLocator) -> None:
    verdict = judge_pair(PairCase.model_validate(SWORN),
                         provider.pair("lin_chong", "lu_zhishen"), _block_of(locator))
    assert verdict.right


def test_a_wrong_expectation_is_caught(provider: MemoryProvider, locator: QuoteLocator) -> None:
    wrong = SWORN | {"relation_types": ["spouse"], "begins_chapter": 30}
    verdict = judge_pair(PairCase.model_validate(wrong),
                         provider.pair("lin_chong", "lu_zhishen"), _block_of(locator))
    assert not verdict.relation and not verdict.begins and not verdict.right


def test_key_stages_found_and_missed(provider: MemoryProvider, locator: QuoteLocator) -> None:
    case = JourneyCase.model_validate({"id": "j", "person": "林冲", "stages": [
        {"label": "火并王伦", "chapter": 19, "words": ["火并"]},
        {"label": "风瘫", "chapter": 119, "words": ["风瘫"]},
        {"label": "(no such stage)", "chapter": 50, "words": ["骑鹤上天"]}]})
    verdict = judge_journey(case, journey_of(provider, "lin_chong"), _block_of(locator))
    assert verdict.found == ["火并王伦", "风瘫"] and verdict.missed == ["(no such stage)"]


def test_a_journey_ends_when_its_last_stage_reaches_the_last_key_stage(
        provider: MemoryProvider, locator: QuoteLocator) -> None:
    """武松's journey reaches 六和寺 (chapter 119, his last key stage): it ends; an expectation
    whose last key stage lies before his last stage (chapter 32) does not."""
    journey = journey_of(provider, "wu_song")
    ending = JourneyCase.model_validate({"id": "j", "person": "武松", "stages": [
        {"label": "打虎", "chapter": 23, "words": ["打虎"]},
        {"label": "出家", "chapter": 119, "words": ["出家"]}]})
    short = JourneyCase.model_validate({"id": "k", "person": "武松", "stages": [
        {"label": "打虎", "chapter": 23, "words": ["打虎"]},
        {"label": "落草", "chapter": 32, "words": ["二龙山"]}]})
    assert judge_journey(ending, journey, _block_of(locator)).ends
    assert not judge_journey(short, journey, _block_of(locator)).ends
