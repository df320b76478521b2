"""English questions: "Why did Jia Yi hate Bing Ding?" is read as the Chinese question it asks
(甲乙为什么恨丙丁: `kb.answering.english_items`, `kb.answering.english_order`) and planned by the
Chinese planner, so that it has the plan the Chinese question has; the plan keeps the English text
(`Plan.asked`) and its language (`Plan.lang` = "en"), and the answer is framed in English
(`kb/data/lang/en.json`), the book's titles, summaries and quotes staying Chinese.

The people are found by their pinyin over the loaded bundle's names and aliases, built on the
first English question (pypinyin's dictionaries are large; a Chinese question never reads them).
Of several people one pinyin writes, two named together are the two who share the story
(`kb.knowledge.names.beside`), one alone the better known. A question with neither a name of the
book nor a word the English file holds is refused in English (`Plan.refusal` = "unread")."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from core.errors import NotFound
from core.text import is_cjk
from kb.answering.english_items import Item, read_items
from kb.answering.english_order import chinese_question
from kb.answering.kinds import select_kinds
from kb.answering.plan import Plan
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.english_words import English, english
from kb.knowledge.names import beside
from kb.knowledge.pinyin_names import PinyinIndex
from kb.knowledge.views import Pair

LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
READ_PARTS = frozenset({"name", "place", "pronoun", "act", "verb", "noun", "unit", "ask_cause",
                        "ask_adverb", "ask_object", "ask_count", "ask_measure", "frame", "adverb"})
"""Items that carry something to look up: a question of none of them (Hello?) is not read."""
PlanChinese = Callable[[str, Sequence[str]], Plan]


APPOSITIVE = re.compile(
    r"(?P<name>\b[A-Z][\w'’-]*)\s*,\s+(?:(?:the|a|an)\s|[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*['’]s\s"
    r"|['‘\"“])[^,?;]*,\s*")
"""A phrase between commas right after a name that says who they are (Bing Ding, the Third Prince
of Jia Yi, …; Jia Yi, Bing Ding's younger brother, …; Jia Yi, the 'Star', …)."""


def without_appositives(question: str) -> str:
    """The question without the phrases that describe a person named (`APPOSITIVE`): they name
    others and add words the question does not ask about (the Third Prince of Jia Yi is no
    premise that Bing Ding killed Jia Yi)."""
    return APPOSITIVE.sub(lambda m: m.group("name") + " ", question)


def is_english(question: str) -> bool:
    """Latin words and no CJK character: the question is asked in English."""
    return LATIN_WORD.search(question) is not None and not any(is_cjk(ch) for ch in question)


@dataclass(frozen=True)
class Reading:
    """What the English front end read of a question: the Chinese question it asks and the
    English words it did not read."""

    chinese: str
    read: bool
    unread: tuple[str, ...]


class EnglishFront:
    """The English questions of one loaded bundle (one per `EvidencePipeline`)."""

    def __init__(self, bundle: KnowledgeBundle, pair_of: Callable[[str, str], Pair]) -> None:
        self.bundle = bundle
        self.pair_of = pair_of

    @cached_property
    def file(self) -> English:
        return english()

    @cached_property
    def index(self) -> PinyinIndex:
        """The bundle's names by their pinyin, built on the first English question."""
        return PinyinIndex.build(self.bundle.people, self.bundle.events,
                                 self.file.surname_readings)

    def read(self, question: str) -> Reading:
        items = self._chosen(read_items(without_appositives(question), self.file, self.index))
        unread = tuple(" ".join(i.words) for i in items if i.part == "unknown")
        chinese = chinese_question(items, self.file)
        read = bool(chinese) and any(i.part in READ_PARTS for i in items)
        return Reading(chinese, read, unread)

    def plan(self, question: str, previous: Sequence[str], plan_chinese: PlanChinese) -> Plan:
        """The plan of the Chinese question the English one asks, in English; or the refusal of
        a question the front end cannot read."""
        reading = self.read(question)
        if not reading.read:
            refused = Plan("open", [], [], "", question=question, asked=question, lang="en",
                           refusal="unread")
            return replace(refused, kinds=select_kinds(refused))
        return replace(plan_chinese(reading.chinese, previous), asked=question, lang="en")

    def _chosen(self, items: list[Item]) -> list[Item]:
        """Of several people one pinyin writes, the one beside the other person named."""
        names = [i for i in items if i.part == "name"]
        if len(names) < 2:
            return items
        out = []
        for item in items:
            ids = [pid for pid, _ in item.candidates]
            others = [n.candidates[0][0] for n in names if n is not item]
            if item.part == "name" and len(ids) > 1 and others:
                try:
                    chosen = beside(self.pair_of, ids, others[0])
                except NotFound:
                    chosen = None
                if chosen is not None:
                    name = dict(item.candidates)[chosen]
                    item = replace(item, zh=name)
            out.append(item)
        return out
