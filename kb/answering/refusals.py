"""Every reason to answer `insufficient`, in one place, each said in words a reader understands
("书中没有写哨棒是什么木头"). The plan (`kb.answering.planner`) has decided what is asked; these
checks only look for it. Names, nicknames and frame words (按阶段, 讲讲, 经历) are never what is
missing: the plan's focus holds none of them.

- the question itself: no Chinese words; a 他/她 with no one to point to;
- the premise: a question that says one named person killed or fought another (杀, 打死, 比武 …)
  needs a relation of that type between them, or one evidence sentence naming only them with the
  action (curated relations are complete for their pairs);
- the asked thing (by `Plan.asks`): a quantity needs a numeral with the question's unit (几碗 →
  十五碗); a name needs a person named beside the role (那个汉子), and a person known only by a
  title has none (某教头); who needs someone the question does not name; made-of needs the
  thing with a material (哨棒 … 木);
- coverage: for other questions, a sentence of the evidence must hold `MIN_COVERAGE` of the
  question's content weight (`kb.answering.coverage`); the focus words it lacks are named.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import combinations

from core.text import is_cjk, normalize, to_simplified
from kb.answering.planner import (
    NAME_KINDS,
    PEOPLE_UNITS,
    PERSON_CHARS,
    UNITS,
    PeopleIndex,
    Plan,
    dangling_reference,
)
from kb.knowledge.models import RELATION_TYPES

MIN_COVERAGE = 0.25
"""An open question is answered only when a sentence of the evidence holds at least this share of
the question's content weight; calibrated on the dev sets (README)."""
NUMERAL = "一二三四五六七八九十百千万两半数廿"
PREMISES: dict[str, tuple[tuple[str, ...], frozenset[str]]] = {
    "杀": (("杀掉", "杀了", "杀死", "打死", "砍死", "害死", "杀害", "搠死"), frozenset({"killed"})),
    "斗": (("比武", "交手", "较量", "比试", "比棒", "厮打", "打斗", "斗了"),
           frozenset({"fought", "killed", "enemy"})),
}
"""Action words of a question → the relation types that would make its premise true."""
ACTION_WORDS = {"杀": ("杀", "打死", "搠死", "结果了"), "斗": ("比试", "较量", "交手", "使棒")}
"""How a sentence of the text states the action."""
PREMISE_VERBS = {"杀": "杀了", "斗": "交过手"}
MATERIALS = "木铁钢铜金银竹石玉皮藤"
"""Characters that say what a thing is made of."""
MATERIAL_CHARS = {"木头": "木", "木料": "木", "铁": "铁", "钢": "钢", "铜": "铜"}
NEAR = 8
"""A name answers 那个汉子叫什么 only if it stands this close to 汉子 in a sentence."""

RelationTypes = Callable[[str, str], set[tuple[str, str]]]
"""(a, b) → {(relation type, origin)} of the relations between two people, either direction."""


OPINION = re.compile(r"(?:武艺|武功|本事|本领|功夫)最(?:高|强|好|大)|"
                     r"最(?:厉害|能打|聪明|勇猛|漂亮|美丽|美|可恨|可怜|坏|讨厌|值得)")
"""A reader's judgement (谁的武艺最高, 谁最厉害): the book ranks no one so; a seating rank
(谁的位次最高) is no judgement and is not matched."""


def refuse_question(question: str, plan: Plan, book: str) -> str | None:
    """A question that cannot be looked up at all: no Chinese, a 他 pointing nowhere, or a
    reader's judgement the book never makes (`OPINION`)."""
    if not any(is_cjk(ch) for ch in question):
        return f"问题里没有中文字词：本服务检索{book}原文，请用中文提问（简体、繁体均可）。"
    if dangling_reference(question, plan):
        return ("问题里的“他/她”指谁？请先问一个提到人物的问题（并沿用同一个 session_id），"
                "或直接写出人名。")
    judged = OPINION.search(to_simplified(question))
    if judged and plan.asks in ("who", "what", "name", "identity"):
        return (f"{book}没有评出谁“{judged.group(0)}”：这是读者的评价，书里没有这样的比较或排名"
                "（可以问某人的事迹、兵器或排座次的名次）")
    return None


def asserts_action(question: str) -> bool:
    """The question says someone did one of the `PREMISES` actions (杀掉, 比武 …)."""
    text = to_simplified(question)
    return any(w in text for words, _ in PREMISES.values() for w in words)


def premise_problem(question: str, named: Sequence[str], names: Mapping[str, str],
                    relation_types: RelationTypes, evidence: Sequence[str],
                    people: PeopleIndex) -> str | None:
    """Why the question's premise is neither in the knowledge base nor in one evidence sentence
    that names two of the people with the action (杀, 斗 …), or None."""
    text = to_simplified(question)
    if len(named) < 2:
        return None
    pairs = {(a, b): relation_types(a, b) for a, b in combinations(named, 2)}
    curated = any(origin == "curated" for found in pairs.values() for _, origin in found)
    for action, (words, types) in PREMISES.items():
        if not any(w in text for w in words):
            continue
        recorded = any(t in types for found in pairs.values() for t, _ in found)
        # curated relations are complete for their pairs; extracted ones may miss the action
        if not recorded and (curated or not _stated(action, named, evidence, people)):
            who = [names.get(p, p) for p in named]
            labels = "/".join(RELATION_TYPES[t] for t in sorted(types))
            return (f"书中没有写{who[0]}{PREMISE_VERBS[action]}{'、'.join(who[1:])}："
                    f"问题的前提可能不成立（知识库中两人之间没有“{labels}”的记录）")
    return None


def _stated(action: str, named: Sequence[str], evidence: Sequence[str],
            people: PeopleIndex) -> bool:
    """A sentence that states the action and names two of the people and no one else."""
    for sentence in evidence:
        simplified = to_simplified(sentence)
        mentioned = {p for p, _ in people.find(sentence)}
        if any(w in simplified for w in ACTION_WORDS[action]) and \
                len(mentioned & set(named)) >= 2 and mentioned <= set(named):
            return True
    return False


def _asked_person(plan: Plan, named: Sequence[str], people: PeopleIndex) -> str | None:
    """The named person whose own name is asked (某教头的全名), if any."""
    role = plan.detail.role
    return next((p for p in named if role and any(
        role in to_simplified(n) for n in people.people[p].all_names)), None)


def unknown_name(plan: Plan, named: Sequence[str], people: PeopleIndex,
                 titles: Sequence[str]) -> str | None:
    """A named person's own name is asked, and the knowledge only has titles for them."""
    if plan.asks != "name":
        return None
    asked = _asked_person(plan, named, people)
    if asked and _titles_only(people.people[asked].all_names, titles):
        return f"书中没有给出{people.people[asked].name}的名字"
    return None


def _titles_only(names: Iterable[str], titles: Sequence[str]) -> bool:
    """Every name is a title of the corpus profile (某教头: 教头), so the person has no name."""
    return bool(titles) and all(any(t in n for t in titles) for n in names)


CURRENCY = "贯文两钱锭"
"""多少钱 is answered by any sum of money the book gives (三千贯, 十两银子)."""


NUMBER = f"[{NUMERAL}]+(?:单[{NUMERAL}]+)?"
"""A numeral as the book writes it; 单 joins hundreds and units (一百单八, 三百单五)."""


MEASURE_WORDS = "".join(sorted(UNITS | set(CURRENCY)))
"""The measure word a numeral keeps when the question names none (要价多少 → 三千贯, not 三千)."""


def quantity_pattern(plan: Plan) -> re.Pattern[str]:
    """A numeral with the question's unit (and for the generic 个 its noun too); with none asked,
    the measure word the book puts after it, if any."""
    unit, noun = plan.detail.unit, plan.detail.noun
    if unit is None:
        measure = plan.detail.measure
        return re.compile(f"{NUMBER}[{measure}]" if measure else f"{NUMBER}[{MEASURE_WORDS}]?")
    if unit == "钱":
        tail = f"[{CURRENCY}]"
    elif unit in PEOPLE_UNITS and unit != "个":
        tail = f"[{PEOPLE_UNITS}]"
    else:
        tail = re.escape(unit)
    return re.compile(f"{NUMBER}{tail}" + (re.escape(noun) if noun else ""))


def total_in(sentence: str, plan: Plan) -> bool:
    """The sentence gives a whole count: 共 (共有, 共是, 共喫了) shortly before the asked quantity."""
    return re.search(f"共[^，。；！？「」]{{0,4}}?{quantity_pattern(plan).pattern}",
                     to_simplified(sentence)) is not None


def quantity_in(text: str, plan: Plan, people: PeopleIndex) -> str | None:
    """The first quantity of the asked unit in a (simplified) text that is not part of a name
    (a name ending in 万 before 三位: the quantity is 三位, not 万三位)."""
    found = quantities_in(text, plan, people)
    return found[0].group(0) if found else None


def quantities_in(text: str, plan: Plan, people: PeopleIndex) -> list[re.Match[str]]:
    """Every quantity of the asked unit in a (simplified) text, none inside a name (乙二's 二)."""
    pattern = quantity_pattern(plan)
    if pattern.search(text) is None:  # most sentences give none: no names to look up
        return []
    names = [to_simplified(w) for _, w in people.find(text)]
    spans = [(m.start(), m.end()) for n in names for m in re.finditer(re.escape(n), text)]
    out = []
    pos = 0
    while (found := pattern.search(text, pos)) is not None:
        inside = [end for start, end in spans if start < found.end() and found.start() < end]
        if not inside:
            out.append(found)
        pos = max(inside) if inside else found.end()
        pos = max(pos, found.start() + 1)
    return out


def has_quantity(sentence: str, plan: Plan, people: PeopleIndex) -> bool:
    """The sentence gives a quantity of the asked unit that is not part of a name (乙二)."""
    return bool(quantities_in(to_simplified(sentence), plan, people))


def _near(text: str, role: str, people: PeopleIndex) -> set[str]:
    """People named within `NEAR` characters of the role word in a sentence."""
    found: set[str] = set()
    for match in re.finditer(re.escape(role), text) if role else ():
        window = text[max(0, match.start() - NEAR):match.end() + NEAR]
        found |= {pid for pid, _ in people.find(window)}
    return found




def asks_person(plan: Plan) -> bool:
    """The name asked is a person's (the role is a person word), not a shop's or a horse's."""
    role = plan.detail.role or ""
    return role[-1:] != "" and role[-1] in PERSON_CHARS


def made_of_in(sentence: str, plan: Plan) -> bool:
    """The sentence holds the thing asked about and a material (哨棒 … 木)."""
    text = to_simplified(sentence)
    thing, material = plan.detail.thing, plan.detail.material
    if thing and thing not in text:
        return False
    wanted = MATERIAL_CHARS.get(material or "", MATERIALS)
    return any(ch in text for ch in wanted)


def _focus_text(plan: Plan) -> str:
    return "、".join(plan.focus) or _act_text(plan) or "问题所问的事"


def _act_text(plan: Plan) -> str:
    """The question's words left once the names are cut (杀 of 甲杀了谁)."""
    text = plan.cleaned
    for name in sorted(plan.names, key=len, reverse=True):
        text = text.replace(name, " ")
    return "".join(text.split())


_KIND_NAME = re.compile("(" + "|".join(NAME_KINDS) + r")(?:叫做|唤做|喚做|叫|是|为|為|曰|：|:)?"
                        r"[「『“]?([\u4e00-\u9fff]{1,4})")


def kind_of_name(plan: Plan, texts: Sequence[str]) -> str | None:
    """For 甲的法名叫什么: the name the first text gives after the asked kind (法名某某 → 某某)."""
    role = plan.detail.role or ""
    if role not in NAME_KINDS:
        return None
    for text in texts:
        for match in _KIND_NAME.finditer(to_simplified(text)):
            if match.group(1) == role:
                return match.group(2)
    return None


def missing_part(plan: Plan, sentences: Sequence[str], record_people: Iterable[str],
                 people: PeopleIndex, records: Sequence[str] = ()) -> str | None:
    """What the evidence lacks for the kind of answer the plan expects, or None. `sentences`
    are the best sentences of the packed blocks, `records` the text of the record that answers
    (a number or a material may stand in either; a name beside a role only in the text)."""
    texts = [*sentences, *records]
    named = plan.person_ids
    who = "、".join(plan.names)
    if plan.asks == "how_many" and not any(has_quantity(s, plan, people) for s in texts):
        unit = (plan.detail.unit or "") + (plan.detail.noun or "")
        return f"书中没有写{who}{_focus_text(plan)}的数目" + (f"（多少{unit}）" if unit else "")
    if plan.asks == "made_of" and not any(made_of_in(s, plan) for s in texts):
        thing = plan.detail.thing or _focus_text(plan)
        return f"书中没有写{thing}是什么{plan.detail.material or '材料'}" + (
            "做的" if not plan.detail.material else "")
    if plan.asks == "name" and plan.kin:
        return f"书中没有写{who}的{plan.kin[0]}叫什么名字"
    if plan.asks in ("who", "identity") and plan.kin:  # 甲的师父是谁: no one on record
        return f"书中没有写{who}的{plan.kin[0]}是谁"
    if plan.asks == "name" and (plan.detail.role or "") in NAME_KINDS:
        return None if kind_of_name(plan, texts) else f"书中没有写{who}的{plan.detail.role}"
    if plan.asks == "name" and _asked_person(plan, named, people) is None \
            and not (asks_person(plan) and set(record_people) - set(named)):
        role = plan.detail.role or ""
        about = [s for s in sentences if not named or {p for p, _ in people.find(s)} & set(named)]
        beside = {pid for s in about for pid in _near(to_simplified(s), role, people)}
        if not beside - set(named):
            return f"书中没有写{role or '所问的人'}的名字"
    if plan.asks == "who":
        in_sentences = {pid for s in sentences for pid, _ in people.find(s)}
        if not (in_sentences | set(record_people)) - set(named):
            if not plan.focus:  # 甲杀了谁 / 谁杀了甲: the act is all the question says
                act = _act_text(plan) or "做了这件事"
                return f"书中没有写{who}{act}了谁" if plan.detail.whom else \
                    f"书中没有写是谁{act}了{who}"
            return f"书中没有写是谁{_focus_text(plan)}"
    return None


def not_stated(plan: Plan, held: float) -> str | None:
    """Whether (有没有, 是否): the records of the people must hold the asked thing
    (`held`: the share of the question's content weight the best of them holds)."""
    if plan.asks != "whether" or held >= MIN_COVERAGE:
        return None
    return f"书中没有写{'、'.join(plan.names)}{'、'.join(plan.focus) or '这件事'}"


def not_covered(plan: Plan, weights: Mapping[str, float], best: float, held: str) -> str | None:
    """Coverage: the best sentence holds less than `MIN_COVERAGE` of the question's content
    weight. The reason names the focus words the evidence (`held`, simplified) does not hold."""
    if best >= MIN_COVERAGE:
        return None
    lacking = [w for w in plan.focus if not any(
        w[i:i + 2] in held for i in range(max(1, len(w) - 1)))] or list(plan.focus)
    subject = f"（问的是{'、'.join(plan.names)}）" if plan.names else ""
    if not lacking:
        return f"书中找不到与问题相关的原文{subject}"
    return f"书中没有写到“{'”“'.join(lacking[:4])}”{subject}"


def normalized(texts: Iterable[str]) -> str:
    """Texts folded for `not_covered` (simplified, punctuation folded, joined)."""
    return "\n".join(normalize(t) for t in texts)
