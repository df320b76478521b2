"""What a question asks, decided once by the planner (`kb.answering.planner`) and read by every
later step: the evidence, the question kinds, the refusals and the LLM prompt. Nothing after the
plan looks at the question's words again."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from kb.knowledge.profile import Arc

PlanKind = Literal["pair", "journey", "open"]
Ask = Literal["chapter", "how_many", "name", "made_of", "why", "where", "when", "identity", "who",
              "whether", "relation", "stages", "how", "what"]
Moment = Literal["began", "ended"]
Refusal = Literal["no_cjk", "dangling", "opinion", "unread"]


@dataclass(frozen=True)
class Asserted:
    """An act a question says one named person did to another: who acted and on whom, when the
    question makes it plain (the name after the verb, after 把, before 被), else None."""

    act: str
    """kill, fight, capture, rescue, persecute (kb.answering.details.PREMISE_ROLES)."""
    word: str
    """The question's word for it (生擒)."""
    agent: str | None = None
    patient: str | None = None


@dataclass(frozen=True)
class AskDetail:
    """What the kind of answer needs beyond the focus words."""

    unit: str | None = None
    """The unit of a quantity (几只 → 只, 多少斤 → 斤)."""
    noun: str | None = None
    """The noun after the generic unit 个 (几个孩子 → 孩)."""
    role: str | None = None
    """Whose name is asked: 汉子 in 那个汉子叫什么名字."""
    thing: str | None = None
    """What something is made of: 哨棒 in 哨棒是什么木头做的."""
    material: str | None = None
    """The asked kind of material: 木头."""
    passive: bool = False
    """Who did it to the named person (甲被谁活捉了): the named person is the one acted on."""
    counted: str | None = None
    """What is counted, after the unit (几只老虎 → 老虎): a headline may give its number without the
    unit (杀四虎)."""
    total: bool = False
    """A how-many that asks for the whole count (一共, 总共): the book's 共 sentence answers it
    (前後共喫了十五碗), not the first number of the scene (三碗不过冈)."""
    measure: str | None = None
    """The units a how-far / how-heavy / how-long asks in (多远 → 里, 多重 → 斤): 多远 with no
    unit must not take the 一 of 初一日."""
    meeting: bool = False
    """Asked of two people where, when or in which chapter they met (甲在哪里遇到乙): the first
    meeting, not a scene; of one person, whom they met at a place."""
    whom: bool = False
    """甲杀了谁: the named one acts and the asked one comes after the act (谁杀了甲 asks the actor)."""
    last_words: bool = False
    """甲死前说了什么: what was said or written just before the death."""
    death: bool = False
    """甲是什么时候死的 / 哪一回死的: the chapter of the end, not a chapter title naming them."""
    act: str | None = None
    """The one-character verb a number is asked of (卖了多少钱 → 卖, 能走多少里 → 走): the book's
    number for that act, not another the scene counts (the coins cut in the same passage)."""
    chapter_told: int | None = None
    """第N回讲了什么: the chapter whose story is asked (its summary and scenes answer)."""
    relative: bool = False
    """A person of the plan stands for a relative the question names by a kinship word (甲的管家 →
    乙): the kinship word is how they were found, not a thing asked about."""
    attribute: str | None = None
    """甲是哪里人, 甲长什么样: the attribute of one person asked (kb.answering.attributes), which
    their profile or introduction answers."""
    after_band: str | None = None
    """甲上梁山以后做了什么: what came after joining the band (its place as asked, "" when none
    is named); the joining itself (`joining`) is not asked."""
    weapon: bool = False
    """甲用什么兵器: the person's weapon states answer (kb.answering.weapons), not a battle line that
    names the word."""
    ordinal: bool = False
    """第几位 asks a rank, not a count: the book's 第N位 (or the record's) that the question's
    words stand beside (排座次居第1位)."""
    joining: str | None = None
    """甲是怎么上某山的, 甲为什么落草: how one person came to a band — the band's place as asked
    ("" when none is named); None when the question does not ask it (kb.answering.joining)."""
    premises: tuple[Asserted, ...] = ()
    """The acts the question says happened between its people (甲为什么杀乙, 甲怎么活捉了乙):
    the records must hold them, else the premise may be false (kb.answering.refusals)."""
    fate: bool = False
    """How it ended, of the person itself (结局, 怎么死的, 怎么圆寂的): every focus word holds an
    end character (某人的老娘是怎么死的 asks about the mother, not the person's end)."""


@dataclass(frozen=True)
class Plan:
    kind: PlanKind
    person_ids: list[str]
    names: list[str]
    cleaned: str
    follow_up: bool = False
    asks: Ask = "what"
    moment: Moment | None = None
    focus: tuple[str, ...] = ()
    detail: AskDetail = field(default_factory=AskDetail)
    kin: tuple[str, ...] = ()
    """Kinship words the question puts after a name that no relative in the knowledge answers
    (某人的母亲: no mother of theirs on record)."""
    question: str = ""
    """The question as asked (of an English question, the Chinese question it asks): the lexical
    query is made of it, the LLM reads it."""
    named: tuple[tuple[str, str], ...] = ()
    """(person id, the name as written) of everyone the question names, in question order, before
    a kinship word turns a name into the relative and before a pair is chosen."""
    refusal: Refusal | None = None
    """The question cannot be looked up at all (no Chinese, a 他 pointing nowhere, a reader's
    judgement, an English question with nothing the reader reads); `opinion` holds the
    judgement's words."""
    opinion: str = ""
    arc: Arc | None = None
    """The stretch of the story the question names as its when (征某时, 甲死后): everything is
    restricted to its chapters (kb.answering.arcs)."""
    told_arc: Arc | None = None
    """The stretch of the story whose course is asked (三打某庄的经过): its scenes answer."""
    roles: frozenset[str] = frozenset()
    """The roles of the language's words the question holds (kb.knowledge.language: asks_why,
    episode, meeting …): what a question kind may read of the question's words."""
    lang: str = "zh"
    """The language the question was asked in, and its answer is framed in (kb/data/lang)."""
    asked: str = ""
    """The question as the reader wrote it, when it was read as another language's question
    (English: kb.answering.english); "" when it is `question` itself."""
    kinds: tuple[str, ...] = ()
    """The question kinds that may answer, in priority order (kb.answering.kinds): the first
    whose answer is found answers."""

    @property
    def named_ids(self) -> list[str]:
        return [pid for pid, _ in self.named]
