"""Question planning: which people a question names, and whether it asks about a pair, a journey
or something open. The rules (applied in this order):

1. People are found by longest match of every name and alias (2+ characters, after script and
   punctuation folding) over the question; overlapping shorter matches are dropped.
2. A name followed by a kinship word (某人他老婆, 某人的哥哥) stands for the relative the knowledge
   base links them to by that relation type, when exactly one fits.
3. A question that names no one but refers back (他, 她, 他们, 那人, 后来 …) inherits the people
   of the session's last question: 他/她 the first of them, 他们 all of them; with no session
   to inherit from, the answer asks who is meant.
4. Two or more people → `pair` (the first two named, in question order).
5. One person and a journey word (经历, 后来, 结局, 一路, 行踪, 怎么上, 下场 …) → `journey`,
   unless the question also carries more than `MAX_JOURNEY_DETAIL` characters of its own
   content (打老虎那会儿手里的哨棒后来怎么了 asks about one scene, not a course of life). A bare
   "what did he do" (做了什么, 干了哪些) is a journey only with no content of its own: 某人做了什么
   asks for the life, 某人在某地做了什么 for the scene there.
6. Everything else → `open`.

What is asked is decided here too, once (`Plan.asks`, `Plan.moment`, `Plan.focus`), and every
later step (evidence, composition, refusals, the LLM prompt) reads it instead of looking at the
question's words again:

- `asks`, the first that applies: `chapter` (第几回, 哪一回), `how_many` (多少, 几碗, 多长 …),
  `name` (叫什么, 名字), `made_of` (什么木头, 用什么做的), `why` (为什么, 为何, 怎么会 …),
  `where` (在哪, 哪里, 何处 …), `when` (什么时候, 何时), `identity` (one person: 是什么人,
  来头, 介绍一下), `who` (谁, 哪些人, 哪个), `whether` (有没有, 是否), then by kind:
  `relation` (a pair), `stages` (a journey), `how` (怎么, 如何), `what`.
- `moment`: `began` (第一次, 认识, 最初 …) or `ended` (最后, 结局, 怎么死 …) when the question
  asks how the story of its people began or ended (not when it asks about one scene: more than
  `MAX_TEMPORAL_DETAIL` characters of its own content).
- `focus`: the content words of the question — names, nicknames, asking words and frame words
  (按阶段, 讲讲, 经历 …) taken out; what the evidence must hold, and what a refusal names.
- `detail`: what the kind of answer needs — the unit and noun of a quantity (几只老虎), the role
  whose name is asked (那个汉子), the thing and the material (哨棒, 木头); and the kinds answered
  their own way: where two met (`meeting`), whom someone acted on (`whom`: 甲杀了谁), last words
  (`last_words`), the chapter of a death (`death`), how someone came to a band (`joining`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from core.text import is_cjk, normalize, normalize_with_offsets
from kb.answering.attributes import asked_attribute
from kb.answering.joining import asked_band
from kb.answering.numerals import chapter_number
from kb.answering.weapons import asks_weapon
from kb.knowledge.models import Person
from retrieval.analyzers import FUNCTION_CHARS, clean_query

PlanKind = Literal["pair", "journey", "open"]
Ask = Literal["chapter", "how_many", "name", "made_of", "why", "where", "when", "identity", "who",
              "whether", "relation", "stages", "how", "what"]
Moment = Literal["began", "ended"]

DEED_WORDS = ("做了什么", "干了什么", "做了哪些", "干了哪些", "做过什么", "干过什么", "做过哪些",
              "干过哪些", "做了什么事", "干了什么事", "做了哪些事", "干了哪些事", "做过哪些事",
              "干过哪些事")
"""Journey words that ask what someone did: the whole life only when nothing narrows them."""
JOURNEY_WORDS = (
    "经历", "后来", "结局", "下场", "一路", "行踪", "历程", "生平", "一生", "遭遇", "怎么上",
    "如何上", "怎样上", "怎么到", "去了哪", "到了哪", "去哪", "逃到", "落草", "命运", "故事",
    "先后", "哪些地方", "经过了哪", "从东京", "路线", "最后怎样", "怎么样了",
    *DEED_WORDS, "一辈子", "阶段",
)
STRONG_JOURNEY_WORDS = ("经历", "阶段", "一辈子", "一生", "生平", "历程", "遭遇")
"""Words that ask for a course of life even beside some content (从江州到死都经历了什么)."""
MAX_JOURNEY_DETAIL = 4
MAX_STRONG_JOURNEY_DETAIL = 8
FACT_ASKS = frozenset({"chapter", "how_many", "name", "made_of", "why", "where", "when", "who"})
"""Asks that want one fact: with content of its own, such a question is not a journey
(某人后来被发配去了哪里 asks a place)."""
_SPOUSE = ("spouse",)
_IN_LAW = ("father_in_law",)
_SIBLING = ("siblings", "family")
_PARENT = ("parent_child", "family")
_MASTER = ("master_disciple>",)
_DISCIPLE = ("master_disciple<",)
_SERVANT = ("servant<",)
_MASTER_OF_SERVANT = ("servant>",)
"""A directed kin: `>` the relative is the relation's source (甲的师父 teaches 甲), `<` its target."""
KIN_WORDS = {"老婆": _SPOUSE, "妻子": _SPOUSE, "娘子": _SPOUSE, "浑家": _SPOUSE, "夫人": _SPOUSE,
             "媳妇": _SPOUSE, "丈夫": _SPOUSE, "老公": _SPOUSE, "丈人": _IN_LAW, "岳父": _IN_LAW,
             "泰山": _IN_LAW, "哥哥": _SIBLING, "兄长": _SIBLING, "弟弟": _SIBLING,
             "兄弟": _SIBLING, "母亲": _PARENT, "老娘": _PARENT, "父亲": _PARENT, "老爹": _PARENT,
             "爹": _PARENT, "儿子": _PARENT, "女儿": _PARENT, "嫁给": _SPOUSE, "嫁与": _SPOUSE,
             "嫁了": _SPOUSE, "娶了": _SPOUSE, "娶的": _SPOUSE, "师父": _MASTER, "师傅": _MASTER,
             "徒弟": _DISCIPLE, "管家": _SERVANT, "主管": _SERVANT, "都管": _SERVANT,
             "仆人": _SERVANT, "家仆": _SERVANT, "仆从": _SERVANT, "小厮": _SERVANT,
             "伴当": _SERVANT, "主人": _MASTER_OF_SERVANT}
"""Kinship words after a name, and the relation types that lead to the relative, tried in order
(甲的父亲: the father is linked by parent_child; the older bundles wrote family)."""
KIN_AFTER = re.compile("^(?:的|他|她|之)?(" + "|".join(sorted(KIN_WORDS, key=len, reverse=True))
                       + ")")
KIN_HINTS = {"母亲": "母娘", "老娘": "母娘", "父亲": "父爹公", "老爹": "父爹公", "爹": "父爹公",
             "哥哥": "哥兄大", "兄长": "哥兄大", "弟弟": "弟二", "管家": "管", "主管": "管",
             "都管": "管"}
"""Characters a relative's name holds for a kinship word (某某之母 for 老娘), when the relation
type alone (family) fits several relatives."""
FEMALE_CHARS = "娘女姐妹婆嫂氏"
MALE_CHARS = "公翁爹父郎"
KIN_NOT = {**{w: FEMALE_CHARS for w in ("哥哥", "兄长", "弟弟", "兄弟", "父亲", "老爹", "爹", "儿子")},
           "母亲": MALE_CHARS, "老娘": MALE_CHARS, "女儿": MALE_CHARS}
"""Characters a relative's name cannot hold for a kinship word: 甲的弟弟 is his brother, not his sworn
sister 某三娘, though both are linked to him as siblings; 甲的母亲 is not 某太公."""
KinLookup = Callable[[str, str, str, str], str | None]
"""(person id, relation type, name hint characters, excluded characters) → the one relative of
that type (among several, the ones whose names hold none of the excluded characters, then the one
whose name holds a hint character), or None."""
FRAME_WORDS = (
    "按阶段", "分阶段", "阶段", "按时间", "依次", "讲讲", "讲一讲", "说说", "说一说", "谈谈",
    "介绍一下", "介绍", "概括", "简单", "详细", "一辈子", "一生", "这一辈子", "都", "一下",
    "最后", "以后", "之后", "后来", "时候", "当时", "一次", "到底", "为啥", "一共", "大概", "差点",
    "中间", "一直", "这个", "那个", "这几回", "这几", "哪些", "哪去", "到哪", "去哪", "那会儿",
    "是不是", "原来", "先后", "怎么了", "期间", "的时候", "一下子", "具体", "经历", "遭遇",
    "发生", "事情", "请问", "告诉我", "知道", "第一次", "什么东西",
)
"""Words that frame a question without being its content: they are never what the evidence
must hold, and never what a refusal says is missing."""
POINTING_WORDS = ("他", "她", "那人", "此人", "这人")
FOLLOW_UP_WORDS = ("他", "她", "他们", "她们", "那人", "此人", "这人", "后来", "然后", "接着", "那他", "那她")

CHAPTER_ASK = re.compile(r"第几回|哪一回|哪回|第几章|哪一章|哪一回目|在几回|回目")
QUANTITY_ASK = re.compile(r"(?:多少|(?<![哪这那])几)(.)?(.)?|多长|多重|多高|多远|多久|多大")
NAME_ASK = re.compile(r"叫什么|什么名字|名叫|全名|姓名|姓什么|叫啥|字号")
NAME_KINDS = ("法名", "法号", "道号", "表字", "字号", "小名", "乳名", "诨名", "诨号", "别号", "绰号",
              "外号")
"""Kinds of name a person has besides their own (a monk's 法名): the answer is the word after the
kind in the text, not another person named beside it; in 法名叫什么 the role is 法名, not the two
characters before 名叫."""
MADE_OF_ASK = re.compile(r"什么(?:木头|木料|材料|料子|铁|钢|铜|金属|质地)|用什么.{0,3}(?:做|打|造|制|铸)"
                         r"|是什么.{0,2}(?:做|打|造|制|铸)[的成]")
MATERIAL = re.compile(r"什么(木头|木料|材料|料子|铁|钢|铜|金属|质地)")
LONE_DE = re.compile(r"(?<![\u4e00-\u9fff])([\u4e00-\u9fff])的([\u4e00-\u9fff])(?![\u4e00-\u9fff])")
"""A lone verb and a lone object joined by 的 (打的虎) are one content word once the asking words
around them are gone."""
FOCUS_BREAKS = "与跟同在从向对给把被将过替"
"""Characters that join a question's words: focus words are split there."""
WHY_ASK = re.compile(r"为什么|为何|为啥|因何|何故|怎么会|什么原因|原因|缘故|缘何|凭什么|为了什么|"
                     r"起因|动机|干嘛")
WHERE_ASK = re.compile(r"在哪|哪里|何处|什么地方|哪儿|去哪|到哪|何地|哪个地方|逃到|哪座|哪一座")
WHEN_ASK = re.compile(r"什么时候|何时|几时|哪一年|哪年|哪一天|哪天")
IDENTITY_ASK = re.compile(r"^(?:是|乃)?(?:什么来头|(?:什么人|何人)\W*(?:[吗呢啊]\W*)?$|谁是?$|怎样的人"
                          r"|什么样的人|什么身份)"
                          r"|来头|来历|出身|身份|简介|介绍一下|是个什么|绰号|外号|诨名|诨号|别号"
                          r"|称号|^(?:以前|原来|原先|本来|从前|当初)?是?(?:做什么的|干什么的|做什么营生"
                          r"|以什么为生|什么职业)")
WHO_ASK = re.compile(r"谁|哪些人|哪几个|哪两个|哪个人|哪位|什么人|何人|哪个(?:和尚|好汉|头领|人)")
HOW_ASK = re.compile(r"怎么|如何|怎样|怎生|咋")
PASSIVE = re.compile(r"被(?:谁|哪|什么人|何人)|是谁.{0,4}的")
"""被谁, 被哪个 …: the person named is acted on, the asked one acts."""
TOTAL_ASK = re.compile(r"一共|总共|共有|合共|总计|共计|一总|总数|加起来|前后共")
WHETHER_ASK = re.compile(r"有没有|是否|是不是|可曾|有无|曾否|难道")
PERSON_CHARS = "人汉者子官王头婆娘公氏儿女客僧道师匠卒兵将翁妇妻夫"
"""The last character of a word for a person (好汉, 头领's 头, 强人); 药铺 holds none."""
PEOPLE_UNITS = "位员个人名条"
"""Units a count of people is given in, each as good as another (多少位好汉: 一百单八员)."""
MEASURES = {"多远": "里步程", "多重": "斤两", "多高": "丈尺寸", "多长": "丈尺寸里", "多久": "年月日天",
            "多大": "岁"}
"""The units each how-much-of-a-dimension question is answered in."""
UNITS = set("斤两碗个只次天日年岁回里丈尺寸贯锭匹口条人员名位把件杯钱卷封句首副张枝支座颗块")
END_WORDS = ("最后", "结局", "下场", "最终", "临终", "临死", "怎么死", "如何死", "怎样死", "之死",
             "死因", "归宿", "晚年", "死在")
START_WORDS = ("第一次", "初次", "起初", "最初", "当初", "认识", "相识", "结识", "出身", "来历",
               "来头", "头一回", "开始", "碰面", "初见", "初会")
MAX_TEMPORAL_DETAIL = 4
"""More content than this (characters) makes a 最后/第一次 question about an episode."""
ASK_WORDS = ("为什么", "为何", "为啥", "因何", "何故", "怎么会", "什么原因", "原因", "缘故", "缘何",
             "凭什么", "为了什么", "起因", "什么东西", "东西", "什么时候", "何时", "几时", "在哪里",
             "在哪", "哪里",
             "何处", "什么地方", "哪儿", "去哪", "到哪", "何地", "叫什么", "什么名字", "名字", "全名",
             "姓名", "真名", "本名", "原名", "大名", "真实姓名", "第几回", "哪一回", "多少",
             "是谁", "有谁", "哪些人", "哪几个", "哪两个",
             "哪个人", "哪位", "什么人", "何人", "怎么样", "怎么", "如何", "怎样", "什么", "是什么",
             "谁", "哪个", "哪些", "几", "吗", "呢", "了", "的", "是", "有", "要", "能", "会", "被")


def dangling_reference(question: str, plan: Plan) -> bool:
    """The question points back (他, 她, 那人 …) but names no one and has nothing to inherit."""
    return not plan.person_ids and _has_any(normalize(question), POINTING_WORDS)


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

FOUND_CACHE = 4096


@dataclass
class PeopleIndex:
    """Normalized names and aliases → person id, for finding people inside questions."""

    people: dict[str, Person]
    names: dict[str, str] = field(default_factory=dict)

    @classmethod
    def build(cls, people: Iterable[Person]) -> PeopleIndex:
        """A person's own name always finds them; an alias finds its person only when no other
        person has it (an alias two people share, 张大哥 or 知府, names neither)."""
        index = cls({p.id: p for p in people})
        ordered = sorted(index.people.values(), key=lambda p: (p.origin != "curated", p.id))
        primary: dict[str, str] = {}
        holders: dict[str, set[str]] = {}
        for person in ordered:
            primary.setdefault(normalize(person.name), person.id)
            for name in person.aliases:
                holders.setdefault(normalize(name), set()).add(person.id)
        bearers: dict[str, list[str]] = {}
        for person in ordered:
            bearers.setdefault(normalize(person.name), []).append(person.id)
        index.homonyms = {k: tuple(ids) for k, ids in bearers.items() if len(ids) > 1}
        for key, person_id in primary.items():
            if len(key) >= 2:
                index.names[key] = person_id
        for key, ids in holders.items():
            if len(key) >= 2 and key not in index.names and len(ids) == 1:
                index.names[key] = next(iter(ids))
        index.longest = max((len(k) for k in index.names), default=0)
        return index

    longest: int = 0
    homonyms: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """A name several people bear (two women called 甲婆) → their ids; the name finds the first of them, and
    the evidence step picks, in a pair, the one beside the other person."""
    _found: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict, repr=False)
    """Texts already searched (a question is searched by the planner, the evidence step and the
    composer; a record's text again for every question it answers). Bounded by `FOUND_CACHE`."""

    def find(self, question: str) -> list[tuple[str, str]]:
        """(person id, the matched text as written) in question order, each person once."""
        found = self._found.get(question)
        if found is None:
            found = tuple(self._search(question))
            if len(self._found) >= FOUND_CACHE:
                self._found.clear()
            self._found[question] = found
        return list(found)

    def _search(self, question: str) -> list[tuple[str, str]]:
        text, offsets = normalize_with_offsets(question)
        found: list[tuple[str, str]] = []
        seen: set[str] = set()
        i = 0
        while i < len(text):
            for length in range(min(self.longest, len(text) - i), 1, -1):
                person_id = self.names.get(text[i:i + length])
                if person_id:
                    if person_id not in seen:
                        seen.add(person_id)
                        found.append((person_id, question[offsets[i]:offsets[i + length - 1] + 1]))
                    i += length
                    break
            else:
                i += 1
        return found


def _has_any(text: str, words: Sequence[str]) -> bool:
    return any(w in text for w in words)


def content_chars(cleaned: str, names: Sequence[str], words: Sequence[str] = (),
                  ignore: str = "") -> int:
    """Characters of the question's own content: names, journey, follow-up, frame and function
    words, the given `words` and the `ignore` characters (the novel's most frequent places) taken
    out."""
    text = normalize(cleaned)
    for word in sorted([*map(normalize, names), *JOURNEY_WORDS, *FOLLOW_UP_WORDS, *FRAME_WORDS,
                        *words], key=len, reverse=True):
        text = text.replace(word, "")
    return sum(1 for ch in text if ch not in FUNCTION_CHARS and ch not in ignore)


def _kin(question: str, found: list[tuple[str, str]], kin_of: KinLookup | None,
         unresolved: list[str] | None = None) -> list[tuple[str, str]]:
    """Replace 甲 by 甲娘子 in 甲他老婆…: a person followed by a kinship word becomes the
    relative the knowledge base links them to (when exactly one relative fits)."""
    if kin_of is None:
        return found
    text = normalize(question)
    out = []
    for pid, written in found:
        after = text.split(normalize(written), 1)[-1]
        match = KIN_AFTER.match(after)
        if match and unresolved is not None:
            unresolved.append(match.group(1))
        relative = next((r for t in KIN_WORDS[match.group(1)]
                         if (r := kin_of(pid, t, KIN_HINTS.get(match.group(1), ""),
                                         KIN_NOT.get(match.group(1), "")))), None) \
            if match else None
        if relative and match and unresolved:
            unresolved.pop()
        out.append((relative, written + match.group(0)) if relative and match else (pid, written))
    return list(dict.fromkeys(out))


MEETING_WORDS = ("遇到", "遇见", "相遇", "碰到", "碰见", "见到", "见面", "相见", "认识", "结识",
                 "相识", "初见", "初会")
DEATH_WORDS = ("死", "去世", "身亡", "阵亡", "圆寂", "坐化")
LAST_WORDS_ASK = ("死前", "临死", "临终", "遗言", "圆寂前", "坐化前", "死之前")
SAID_ASK = ("说", "写", "嘱", "言", "留下", "交代", "遗言")
NOT_ACTS = frozenset("有是的共在要能会花")
"""Characters before 多少 that are not the counted act (一共有多少, 是多少, 能走多少: 走 is; 买刀花了
多少钱: the act is 买, the book never writes the spending)."""
NOT_JOINING_ASKS = frozenset({"who", "how_many", "name", "made_of", "whether", "identity",
                              "chapter"})
"""Asks about a joining that want something else than the road there (谁引甲上山: a name; 甲上山是
哪一回: the chapter whose title tells it)."""
AFTER_WORDS = ("以后", "之后", "后来")
"""甲上山以后做了什么 asks what came after the joining, not how it came about."""
WHOM_WORDS = ("谁", "哪些人", "哪个人", "什么人", "哪几个", "哪几人")


def _asks_whom(text: str, written: Sequence[str]) -> bool:
    """甲杀了谁: a named person comes before the asking word, nothing asks before them, and
    the named one is not acted on (甲被谁杀)."""
    where = [text.find(k) for k in (normalize(w) for w in written) if len(k) >= 2 and k in text]
    if not where:
        return False
    before, after = text[:min(where)], text[min(where):]
    return any(w in after for w in WHOM_WORDS) and "被" not in after \
        and not any(w in before for w in WHOM_WORDS)


CHAPTER_NAMED = re.compile(r"第([0-9]+|[一二三四五六七八九十百千零〇两]+)回")
STORY_ASK = re.compile(r"讲了?(?:的是)?什么|讲的什么|写了?(?:的是)?什么|写的什么|说了?(?:的是)?什么|"
                       r"说的什么|内容|大意|概要|梗概|概括|情节|发生了什么|讲述|讲讲|说说")
"""第N回讲了什么, 第N回的主要内容: the story of a chapter named by its number."""


def _chapter_told(text: str) -> int | None:
    named = CHAPTER_NAMED.search(text)
    if named is None or not STORY_ASK.search(text[named.end():]):
        return None
    return chapter_number(named.group(1))


WEAPON_ASKS = ("what", "name", "made_of", "identity", "how", "relation")
"""用什么兵器 (what), 兵器叫什么 (name), 用什么兵器打仗 (made_of: 用什么); of two people the
planner reads 甲和乙用什么兵器 as their relation."""


def _detail_of_kind(text: str, asks: Ask, ids: Sequence[str], focus: Sequence[str],
                    written: Sequence[str], detail: AskDetail) -> AskDetail:
    """The kinds of question the answer step answers in their own way, decided here once."""
    one = len(ids) == 1
    meeting = any(m in text for m in MEETING_WORDS) and all(
        any(m in w for m in MEETING_WORDS) for w in focus)
    return replace(
        detail, meeting=meeting,
        whom=asks == "who" and one and not detail.passive and _asks_whom(text, written),
        last_words=one and any(w in text for w in LAST_WORDS_ASK)
        and any(w in text for w in SAID_ASK),
        death=asks in ("when", "chapter") and one and any(w in text for w in DEATH_WORDS)
        and all(any(d in w for d in DEATH_WORDS) for w in focus),
        chapter_told=_chapter_told(text),
        attribute=asked_attribute(text) if one else None,
        weapon=len(ids) in (1, 2) and asks in WEAPON_ASKS and not detail.material
        and asks_weapon(text),
        joining=asked_band(text) if one and asks not in NOT_JOINING_ASKS
        and not any(w in text for w in AFTER_WORDS) else None,
        after_band=asked_band(text) if one and asks in ("what", "how", "stages")
        and any(w in text for w in AFTER_WORDS) else None)


def _the_pair(text: str, found: Sequence[tuple[str, str]], ids: list[str]) -> list[str]:
    """The two a question of three or more people asks about: one from each side of the widest
    gap between the names (甲乙和丙是什么亲戚: 甲 and 丙; 甲乙为什么要害丙: 甲 and 丙), the first
    two when the names are not found in order."""
    if len(ids) == 2:
        return ids
    spans: list[tuple[int, int, str]] = []
    at = 0
    for pid, written in found:
        start = text.find(normalize(written), at)
        if start < 0:
            return ids[:2]
        spans.append((start, start + len(normalize(written)), pid))
        at = start + len(normalize(written))
    gaps = [spans[i + 1][0] - spans[i][1] for i in range(len(spans) - 1)]
    if not gaps or max(gaps) <= 0:
        return ids[:2]
    cut = max(range(len(gaps)), key=lambda i: gaps[i])
    pair = [spans[0][2], spans[cut + 1][2]]
    return pair if pair[0] != pair[1] else ids[:2]


def _asks_the_relative(text: str, written: str) -> bool:
    """甲嫁给了谁, 甲的丈夫是谁: the question ends on the kinship word and 谁 — the relative is what
    is asked (甲的老婆跟谁私通 asks someone else)."""
    key = normalize(written)
    if not key.endswith(tuple(KIN_WORDS)):
        return False
    rest = normalize(text).split(key, 1)[-1]
    return rest.strip("了是的呢啊呀") == "谁"


def plan_for_question(question: str, people: PeopleIndex, previous: Sequence[str] = (),
                      kin_of: KinLookup | None = None, place_chars: str = "") -> Plan:
    """Decide the kind and the people of a question (rules in the module docstring)."""
    simplified = asked_form(question)
    unresolved: list[str] = []
    named = people.find(question)
    found = _kin(question, named, kin_of, unresolved)
    ids = list(dict.fromkeys(pid for pid, _ in found))
    follow_up = False
    if not ids and previous and _has_any(simplified, FOLLOW_UP_WORDS):
        plural = _has_any(simplified, ("他们", "她们", "两人", "二人", "俩"))
        ids, follow_up = list(previous) if plural else list(previous[:1]), True
    names = [people.people[pid].name for pid in ids]
    asked = ASPECT.sub("", WHY_MODAL.sub(r"\1", SPENDING.sub(" ", asked_form(question))))
    cleaned = " ".join(clean_query(asked).split())
    every_name = [*(written for _, written in found),
                  *(part for _, written in found for part in re.split("[的他她之]", written)
                    if part != written and len(part) >= 2),  # 甲的妻子: 甲, 妻子
                  *(n for pid in ids for n in people.people[pid].all_names)]
    kind: PlanKind = "open"
    focus = focus_words(asked, every_name)
    if len(ids) >= 2:
        kind, ids = "pair", _the_pair(simplified, found, ids)
        names = [people.people[pid].name for pid in ids]
    elif len(ids) == 1 and _has_any(simplified, JOURNEY_WORDS):
        detail_chars = content_chars(cleaned, every_name, (), place_chars)
        limit = (MAX_STRONG_JOURNEY_DETAIL if _has_any(simplified, STRONG_JOURNEY_WORDS)
                 else MAX_JOURNEY_DETAIL)
        undone = _strip_words(simplified, DEED_WORDS)
        if not _has_any(undone, JOURNEY_WORDS):
            limit = 0
            detail_chars = content_chars(" ".join(clean_query(undone).split()), every_name, (),
                                         place_chars)
        kind = "journey" if detail_chars <= limit else "open"
    bare = _strip_words(simplified, [normalize(n) for n in every_name]).replace(" ", "")
    asks, detail = _ask(simplified, kind, len(ids), bare)
    if kind == "journey" and asks in FACT_ASKS and focus:
        kind = "open"
        asks, detail = _ask(simplified, kind, len(ids), bare)
    moment = _moment(simplified, cleaned, every_name, place_chars) if ids else None
    if asks == "who" and len(ids) == 1 and any(_asks_the_relative(simplified, written)
                                               for _, written in found):
        asks = "identity"  # 甲嫁给了谁: the relative the plan resolved is the one asked for
    detail = _detail_of_kind(simplified, asks, ids, focus, [w for _, w in found], detail)
    if found != named:  # 甲的管家: the plan's person is 甲's relative, found by the kinship word
        detail = replace(detail, relative=True)
    return Plan(kind, ids, names, cleaned, follow_up, asks, moment, focus, detail,
                tuple(unresolved))


ASPECT = re.compile(r"(?<=[\u4e00-\u9fff])了(?=[\u4e00-\u9fff](?:$|[^\u4e00-\u9fff]|"
                    r"[什谁几多哪吗呢怎的了是]))(?![什谁几多哪吗呢怎])")
"""丢了官, 上了山: a verb and a one-character object are one word of the question (丢官, as a
record writes it); 了 between them would cut it in two. Before an asking word (做了什么) or a
longer object (说了公道话: 说公 is no word) it stays a break."""
WHY_MODAL = re.compile(r"(为什么|為什麼|为何|為何|为啥|為啥|因何|何故|凭什么|憑什麼)(?:要|想|会|會)")
"""为什么要离开: the modal after a why word is part of the asking, not of the act (要离 weighed as
a word of the question and the act's record no longer held the question)."""
SPENDING = re.compile(r"花(?:了|费了?|掉了?)?(?=多少|几)")
"""花了多少钱: the book tells the price (一千贯买了), never the spending; the verb is cut from the
words the evidence must hold (the planner's act is the verb before it, `NOT_ACTS`)."""
OLD_SPELLINGS = (("甚么", "什么"),)
"""Spellings of asking words a reader of the traditional text writes (為甚麼, 甚麼人), folded to
the ones the rules below know; same length, so offsets stay."""


def asked_form(question: str) -> str:
    """The normalized question with the old spellings of asking words folded."""
    text = normalize(question)
    for old, new in OLD_SPELLINGS:
        text = text.replace(old, new)
    return text


def _strip_words(text: str, words: Iterable[str]) -> str:
    """Longest words first; among words of one length, in a fixed order (a set's order changes
    from one process to the next, and 什么人 before 是什么 cuts 是什么人 differently)."""
    for word in sorted({w for w in words if w}, key=lambda w: (-len(w), w)):
        text = text.replace(word, " ")
    return text


def focus_words(question: str, names: Iterable[str]) -> tuple[str, ...]:
    """The question's content words: runs of characters left once names, asking words, frame,
    journey and moment words and function characters are cut out (rules in the docstring)."""
    text = _strip_words(asked_form(question), [normalize(n) for n in names])
    cut = [*FRAME_WORDS, *JOURNEY_WORDS, *END_WORDS, *START_WORDS, *ASK_WORDS, *FOLLOW_UP_WORDS]
    text = _strip_words(text, [w for w in cut if len(w) >= 2])
    text = LONE_DE.sub(r"\1\2", text)  # 在哪里打的虎: 打虎, not two lone characters
    text = _strip_words(text, [w for w in cut if len(w) < 2])
    text = "".join(ch if is_cjk(ch) and ch not in FUNCTION_CHARS and ch not in FOCUS_BREAKS
                   else " " for ch in text)
    return tuple(dict.fromkeys(w for w in text.split() if len(w) >= 2 or w in UNITS))


def _role_before(text: str, end: int) -> str | None:
    """The two characters naming whose name is asked, just before 叫什么/的名字 (的, 那个 cut)."""
    before = re.sub(r"[的那这个是]+$", "", text[:end])
    match = re.search(r"[\u4e00-\u9fff]{2}$", before)
    return match.group(0) if match else None


def _thing_before(text: str, start: int) -> str | None:
    """What something is made of: the noun just before 是什么/用什么 (after the last 的)."""
    before = re.sub(r"(?:是|用|拿)+$", "", text[:start])
    before = before.rsplit("的", 1)[-1]
    match = re.search(r"[\u4e00-\u9fff]{2}$", before)
    return match.group(0) if match else None


def _ask(text: str, kind: PlanKind, person_count: int, bare: str) -> tuple[Ask, AskDetail]:
    """What is asked (the rule in the module docstring); `bare` is the question with the named
    people's names taken out (for who-is-this-person)."""
    if CHAPTER_ASK.search(text):
        return "chapter", AskDetail()
    quantity = QUANTITY_ASK.search(text)
    if quantity:
        unit = quantity.group(1) if quantity.group(1) in UNITS else None
        noun = quantity.group(2) if unit == "个" and quantity.group(2) else None
        counted = re.match(r"[\u4e00-\u9fff]{1,2}", text[quantity.end(1):]) if unit else None
        measure = MEASURES.get(quantity.group(0))
        asked = len("多少") if text.startswith("多少", quantity.start()) else len("几")
        people = re.match(r"[\u4e00-\u9fff]{1,2}", text[quantity.start() + asked:]) \
            if unit in (None, "个") and not measure else None
        if people and set(people.group(0)) & set(PERSON_CHARS):  # 多少好汉, 几个头领: people
            unit, noun, measure, counted = None, None, PEOPLE_UNITS, people
        verb = re.search(r"([\u4e00-\u9fff])了?$", text[:quantity.start()])
        ordinal = text[max(0, quantity.start() - 1):quantity.start()] == "第"
        return "how_many", AskDetail(unit=unit, noun=noun, total=bool(TOTAL_ASK.search(text)),
                                     counted=counted.group(0) if counted else None,
                                     measure=measure,
                                     act=None if ordinal or not verb
                                     or verb.group(1) in NOT_ACTS else verb.group(1),
                                     ordinal=ordinal)
    name = NAME_ASK.search(text)
    if name:
        other = next((k for k in NAME_KINDS if f"{k}叫" in text or f"{k}是什么" in text), None)
        return "name", AskDetail(role=other or _role_before(text, name.start()))
    made = MADE_OF_ASK.search(text)
    if made:
        material = MATERIAL.search(text)
        return "made_of", AskDetail(thing=_thing_before(text, made.start()),
                                    material=material.group(1) if material else None)
    if WHY_ASK.search(text):
        return "why", AskDetail()
    if WHERE_ASK.search(text):
        return "where", AskDetail()
    if WHEN_ASK.search(text):
        return "when", AskDetail()
    if person_count == 1 and IDENTITY_ASK.search(bare) and len(bare) <= 12:
        return "identity", AskDetail()
    if WHO_ASK.search(text):
        return "who", AskDetail(passive=bool(PASSIVE.search(text)))
    if WHETHER_ASK.search(text):
        return "whether", AskDetail()
    if kind == "pair":
        return "relation", AskDetail()
    if kind == "journey":
        return "stages", AskDetail()
    if HOW_ASK.search(text):
        return "how", AskDetail()
    return "what", AskDetail()


def _moment(text: str, cleaned: str, names: Sequence[str], place_chars: str) -> Moment | None:
    """How the story began or ended, when the question asks that of its people (not of one
    scene: `MAX_TEMPORAL_DETAIL`)."""
    end = any(w in text for w in END_WORDS)
    start = any(w in text for w in START_WORDS)
    if end == start:
        return None
    if content_chars(cleaned, names, (*END_WORDS, *START_WORDS), place_chars) > MAX_TEMPORAL_DETAIL:
        return None
    return "ended" if end else "began"
