"""A journey reaches the person's death or last act, on real books: the curated 水浒 records, the
水浒 extracted from its text alone (the curated lexicon as the roster, no curated record), and
三国 built from its text alone (people discovered, records extracted)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest
from extract_support import fresh_inputs

from core.settings import REPO_ROOT, Settings
from extract.discover import discover_lexicon
from extract.offline import OfflineExtractor
from extract.pipeline import Inputs, assemble, load_inputs
from extract.text import ChapterTexts
from ingest.chunking import chunk_corpus
from ingest.corpus import read_corpus
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.genre import genre, is_death
from kb.knowledge.journey import build_journey
from kb.knowledge.views import Journey

SANGUO = REPO_ROOT.parent / "shared" / "corpus" / "sanguo" / "zh-hans"
SANGUO_DEV = REPO_ROOT / "eval" / "sanguo" / "journeys_dev.jsonl"
SANGUO_PEOPLE = REPO_ROOT / "eval" / "sanguo" / "people_dev.jsonl"


def _journey(bundle: KnowledgeBundle, person: str) -> Journey:
    found = next(p for p in bundle.people if p.id == person)
    return build_journey(found, [e for e in bundle.events if person in e.person_ids],
                         [s for s in bundle.states if s.person == person])


def _deaths(bundle: KnowledgeBundle) -> dict[str, int]:
    """person → the chapter of their (last) death state."""
    found: dict[str, int] = {}
    for state in bundle.states:
        if is_death(state):
            found[state.person] = max(found.get(state.person, 0), state.chapter)
    return found


def _assert_ends_at_death(bundle: KnowledgeBundle, person: str, chapter: int) -> None:
    journey = _journey(bundle, person)
    last = journey.stages[-1]
    assert last.chapters[0] <= chapter <= last.chapters[-1], (person, last.chapters, chapter)
    death = genre().death_words
    assert any(st.kind == "status" and death.search(st.value) and st.chapter == chapter
               for st in last.states), person
    # the dead act no more: no event after the death is told (an honour after it may be)
    assert all(e.chapter <= chapter for st in journey.stages for e in st.events), person


def test_every_curated_death_ends_its_journey(kb_curated_bundle: KnowledgeBundle) -> None:
    deaths = _deaths(kb_curated_bundle)
    assert len(deaths) > 250
    for person, chapter in deaths.items():
        _assert_ends_at_death(kb_curated_bundle, person, chapter)


def test_the_last_stage_is_titled_by_the_death(kb_curated_bundle: KnowledgeBundle) -> None:
    """鲁智深's last stage is his death (听潮坐化), not the capture of 方腊 earlier that chapter."""
    last = _journey(kb_curated_bundle, "lu_zhishen").stages[-1]
    assert "坐化" in last.title and any("坐化" in e.title for e in last.events)


def test_without_a_death_the_last_act_is_listed(kb_curated_bundle: KnowledgeBundle) -> None:
    alive = [p.id for p in kb_curated_bundle.people if p.id not in _deaths(kb_curated_bundle)]
    checked = 0
    for person in alive:
        events = sorted((e for e in kb_curated_bundle.events if person in e.person_ids),
                        key=lambda e: e.order)
        if len(events) < 8:
            continue
        told = [st for st in _journey(kb_curated_bundle, person).stages if st.events]
        assert told[-1].events[-1].id == events[-1].id, person
        checked += 1
    assert checked > 20


@lru_cache(maxsize=1)
def _extracted_shuihu() -> tuple[KnowledgeBundle, Inputs]:
    inputs = fresh_inputs()
    parts = OfflineExtractor(inputs.roster, inputs.texts).extract_chapters(inputs.by_chapter())
    return assemble(parts, inputs), inputs


@pytest.mark.slow  # the whole book extracted from its text
def test_extracted_fates_end_their_journeys() -> None:
    """水浒 from its text alone: every person the extraction gives a death ends there."""
    bundle, _ = _extracted_shuihu()
    deaths = _deaths(bundle)
    assert len(deaths) >= 25
    for person, chapter in deaths.items():
        _assert_ends_at_death(bundle, person, chapter)


@pytest.mark.slow
@pytest.mark.skipif(not SANGUO.is_dir(), reason="the 三国 corpus is not beside the repository")
def test_sanguo_from_its_text_alone_ends_each_journey_at_the_death(tmp_path: Path) -> None:
    """三国: people discovered from the text, records extracted offline; each person the dev set
    follows to a death the book tells ends their journey in that chapter (people_dev gives the
    chapter; the eval files are read here only to check, never to build)."""
    chapters = read_corpus(SANGUO)
    blocks = chunk_corpus(chapters, 600)
    titles = {c.number: c.title for c in chapters}
    discovery = discover_lexicon(ChapterTexts(blocks, titles))
    inputs = load_inputs(Settings(bundle=tmp_path / "none", data_dir=tmp_path), blocks,
                         discovery=discovery, titles=titles)
    parts = OfflineExtractor(inputs.roster, inputs.texts).extract_chapters(inputs.by_chapter())
    bundle = assemble(parts, inputs)
    deaths = _deaths(bundle)
    assert len(deaths) >= 40
    for person, chapter in deaths.items():
        _assert_ends_at_death(bundle, person, chapter)
    if not (SANGUO_DEV.exists() and SANGUO_PEOPLE.exists()):
        return
    told = {json.loads(line)["name"]: json.loads(line).get("death_chapter")
            for line in SANGUO_PEOPLE.read_text(encoding="utf-8").splitlines() if line.strip()}
    for line in SANGUO_DEV.read_text(encoding="utf-8").splitlines():
        case = json.loads(line) if line.strip() else None
        if case is None or told.get(case["person"]) is None:
            continue
        person = inputs.roster.resolve(case["person"])
        assert person is not None
        last = _journey(bundle, person).stages[-1]
        assert last.chapters[0] <= case["stages"][-1]["chapter"] <= last.chapters[-1], case["id"]
