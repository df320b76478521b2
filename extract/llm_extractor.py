"""The LLM extractor: one chat request per block, cached, concurrent, every quote checked.

Each block's reply is validated by `schema.BlockExtraction` (core.llm repairs once, then raises
`ExtractionError`) and saved in the cache at once, so a re-run is free and an interrupted run
resumes. Conversion to domain records happens here, at the boundary: names resolve through the
roster (a name outside it becomes a new person when the block contains it), and a record whose
quote is not in its block, or is not unique in its chapter even when widened, is dropped and
counted. A block that still fails (timeout, rate limit, bad JSON) is counted and left uncached, so
the next run retries it; the other blocks' records are kept.

Event order: chapter × 1000 + 100 + (block index − 1) × 10 + k, k < 10 events per block.
"""

from __future__ import annotations

import hashlib
import logging
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass

from core.errors import ExtractionError, LLMError
from core.llm import ChatClient, check_endpoint, parse_json_reply
from core.text import normalize, to_simplified
from extract.cache import CachedReply, ReplyCache, cache_key
from extract.names import Roster
from extract.parts import ChapterPart
from extract.resolve import relation_id
from extract.schema import BlockExtraction, LLMEvent, LLMRelation, LLMState, schema_for_prompt
from extract.text import ChapterTexts, locate, segment_of
from ingest.chunking import Block
from kb.knowledge.models import Event, Participant, Person, Relation, SourceRef, State

log = logging.getLogger(__name__)
PROMPT_VERSION = "block-v3"
"""v2: the schema's field descriptions name no character of the novel (the corpus is swappable);
v3: the prompt names no script (a book may be written in simplified or traditional characters)."""
MAX_LLM_QUOTE = 120
EVENTS_PER_BLOCK = 10
SYSTEM_PROMPT = """你是{book}的知识抽取助手。
阅读用户给出的一段原文，找出其中的人物、事件、人物关系和人物状态。
规则：
1. 只写原文明确说到的内容，不要根据别处的情节补充。
2. 每条记录的 quote 必须逐字摘自这段原文（照原文的字形，不改字，不超过60字），关系的 quote 要同时出现两个人。
3. 人名用原文中最常用的全名，不用代词或绰号。
4. 关系类型只能用 schema 中列出的英文键。
只回答一个 JSON 对象，格式如下 JSON Schema：
{schema}"""


def build_messages(block: Block, known: Sequence[str], book: str) -> list[dict[str, str]]:
    """The system prompt (rules + schema) and the block, with the names the lexicon sees in it."""
    hint = f"已知人物（可能出现）：{'、'.join(known)}\n" if known else ""
    user = f"第{block.chapter}回，段落 {block.id}。\n{hint}原文：\n{block.text}"
    return [{"role": "system", "content": SYSTEM_PROMPT.format(book=book, schema=schema_for_prompt())},
            {"role": "user", "content": user}]


@dataclass
class BlockOutcome:
    """One block's reply (or failure) and what it cost."""

    block: Block
    extraction: BlockExtraction | None = None
    cached: bool = False
    error: str | None = None
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0


class LLMExtractor:
    """Asks the chat endpoint about every block of the selected chapters, `concurrency` at a time."""

    method = "llm"

    def __init__(self, client: ChatClient, roster: Roster, texts: ChapterTexts, cache: ReplyCache,
                 *, concurrency: int = 4, prompt_version: str = PROMPT_VERSION,
                 book: str = "原著") -> None:
        self.client = client
        self.roster = roster
        self.texts = texts
        self.cache = cache
        self.concurrency = max(1, concurrency)
        self.prompt_version = prompt_version
        self.book = book
        """how the prompt names the novel: the corpus profile's 《title》"""

    def extract_chapters(self, chapters: dict[int, list[Block]],
                         progress: Callable[[int, int], None] | None = None) -> list[ChapterPart]:
        check_endpoint(self.client.base_url)  # refuse a blocked endpoint before any work
        blocks = [b for chapter in sorted(chapters) for b in sorted(chapters[chapter], key=lambda b: b.index)]
        outcomes: dict[str, BlockOutcome] = {}
        with ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="extract") as pool:
            futures = [pool.submit(self.ask, block) for block in blocks]
            for done, future in enumerate(as_completed(futures), start=1):
                outcome = future.result()
                outcomes[outcome.block.id] = outcome
                if progress is not None:
                    progress(done, len(blocks))
        return [self._part(chapter, [outcomes[b.id] for b in blocks if b.chapter == chapter])
                for chapter in sorted(chapters)]

    def ask(self, block: Block) -> BlockOutcome:
        """The block's validated reply: from the cache, else from the endpoint (then cached)."""
        key = cache_key(self.client.model, self.prompt_version, block.text)
        hit = self.cache.get(key)
        if hit is not None:
            try:
                return BlockOutcome(block, parse_json_reply(hit.raw, BlockExtraction), cached=True)
            except ExtractionError:
                log.warning("cached reply for %s no longer validates; asking again", block.id)
        known = sorted({self.roster.people[m.person].name
                        for m in self.roster.matcher(block.chapter).find(to_simplified(block.text))})
        try:
            result = self.client.complete_json(build_messages(block, known, self.book), BlockExtraction)
        except (LLMError, ExtractionError) as exc:
            log.warning("block %s failed: %s", block.id, exc)
            return BlockOutcome(block, error=f"{type(exc).__name__}: {exc}")
        usage = result.usage
        self.cache.put(key, CachedReply(result.raw, block.id, usage.prompt_tokens, usage.completion_tokens))
        return BlockOutcome(block, result.value, calls=usage.calls, prompt_tokens=usage.prompt_tokens,
                            completion_tokens=usage.completion_tokens)

    def _part(self, chapter: int, outcomes: list[BlockOutcome]) -> ChapterPart:
        part = ChapterPart(chapter=chapter, method=self.method)
        tally: Counter[str] = Counter()
        converter = Converter(self.roster, self.texts, part, tally)
        for outcome in outcomes:
            tally.update(blocks=1, blocks_cached=int(outcome.cached),
                         blocks_failed=int(outcome.error is not None), calls=outcome.calls,
                         prompt_tokens=outcome.prompt_tokens, completion_tokens=outcome.completion_tokens)
            if outcome.extraction is not None:
                converter.convert(outcome.block, outcome.extraction)
        tally.update(events=len(part.events), relations=len(part.relations), states=len(part.states))
        part.counters = dict(sorted((k, v) for k, v in tally.items() if v))
        return part


class Converter:
    """LLM answers → domain records of one chapter part; what cannot be verified is counted."""

    def __init__(self, roster: Roster, texts: ChapterTexts, part: ChapterPart, tally: Counter[str]) -> None:
        self.roster = roster
        self.texts = texts
        self.part = part
        self.tally = tally
        self._numbers: Counter[str] = Counter()

    def convert(self, block: Block, answer: BlockExtraction) -> None:
        self.part.mentions[block.id] = dict(sorted(Counter(
            m.person for m in self.roster.matcher(block.chapter).find(to_simplified(block.text))).items()))
        for person in answer.people:
            for alias in [person.name, *person.aliases]:
                if self.person_id(block, alias) is not None:
                    break
        events = [e for e in (self._event(block, k, e) for k, e in enumerate(answer.events)) if e]
        self.part.events += events
        self.part.relations += [r for r in (self._relation(block, r, events) for r in answer.relations) if r]
        self.part.states += [s for s in (self._state(block, s) for s in answer.states) if s]

    def ref(self, block: Block, quote: str) -> SourceRef | None:
        """The quote as it stands in the block (original script), widened until unique in the chapter."""
        span = locate(block.text, quote)
        if span is None:
            self.tally["dropped_quote_not_in_block"] += 1
            return None
        unique = self.texts.unique_quote(block, segment_of(block.text, span), span, MAX_LLM_QUOTE)
        if unique is None:
            self.tally["dropped_quote_not_unique"] += 1
            return None
        return SourceRef(chapter=block.chapter, quote=unique, chunk_id=block.id)

    def person_id(self, block: Block, name: str) -> str | None:
        """A roster person, a person already added from this chapter, or a new one the block names."""
        found = self.roster.resolve(name, block.chapter)
        if found is not None:
            self._remember(block, found, name)
            return found
        form = to_simplified(name.strip())
        if len(normalize(form)) < 2 or normalize(form) not in normalize(block.text):
            self.tally["dropped_unknown_name"] += 1
            return None
        person_id = "llm_" + hashlib.sha1(form.encode("utf-8")).hexdigest()[:10]
        ref = self.ref(block, name)
        if ref is None:
            return None
        person = Person(id=person_id, name=form, sources=[ref], first_chapter=block.chapter,
                        confidence=0.6, origin="extracted")
        self.roster.add(person)
        self.part.new_people.append(person)
        self.part.person_refs[person_id] = ref
        return person_id

    def _remember(self, block: Block, person_id: str, name: str) -> None:
        if person_id not in self.part.person_refs:
            ref = self.ref(block, name)
            if ref is not None:
                self.part.person_refs[person_id] = ref

    def _event(self, block: Block, k: int, answer: LLMEvent) -> Event | None:
        if k >= EVENTS_PER_BLOCK:
            self.tally["dropped_event_over_limit"] += 1
            return None
        people = list(dict.fromkeys(p for p in (self.person_id(block, n) for n in answer.participants) if p))
        ref = self.ref(block, answer.quote)
        if ref is None or not people:
            self.tally["dropped_event"] += 1
            return None
        return Event(id=f"xev_ch{block.chapter:03d}_{block.index:03d}_{k}", title=answer.title,
                     chapter=block.chapter, order=block.chapter * 1000 + 100 + (block.index - 1) * 10 + k,
                     place=answer.place, participants=[Participant(person=p) for p in people],
                     summary=answer.summary, sources=[ref], confidence=0.7, origin="extracted")

    def _relation(self, block: Block, answer: LLMRelation, events: list[Event]) -> Relation | None:
        source, target = self.person_id(block, answer.source), self.person_id(block, answer.target)
        ref = self.ref(block, answer.quote)
        if source is None or target is None or source == target or ref is None:
            self.tally["dropped_relation"] += 1
            return None
        if not answer.directed:
            source, target = sorted((source, target))
        linked = [e.id for e in events if {source, target} <= set(e.person_ids)]
        return Relation(id=relation_id(source, target, answer.type, answer.directed), source=source,
                        target=target, type=answer.type, directed=answer.directed,
                        description=answer.description, chapters=[block.chapter], events=linked,
                        sources=[ref], confidence=0.7, origin="extracted")

    def _state(self, block: Block, answer: LLMState) -> State | None:
        person = self.person_id(block, answer.person)
        ref = self.ref(block, answer.quote)
        if person is None or ref is None:
            self.tally["dropped_state"] += 1
            return None
        self._numbers[person] += 1
        return State(id=f"xst_{person}_{block.chapter:03d}_{self._numbers[person]:02d}", person=person,
                     kind=answer.kind, value=answer.value, chapter=block.chapter, sources=[ref],
                     confidence=0.7, origin="extracted")
