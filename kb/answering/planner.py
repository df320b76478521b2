"""Question planning: which people a question names, whether it asks about a pair, a journey or
something open, what it asks, and which question kinds may answer it. The rules (in this order):

1. People are found by longest match of every name and alias (2+ characters, after script and
   punctuation folding) over the question; overlapping shorter matches are dropped.
2. A name followed by a kinship word (某人他老婆, 某人的哥哥) stands for the relative the knowledge
   base links them to by that relation type, when exactly one fits (`kb.answering.kinship`).
3. A question that names no one but refers back (他, 她, 他们, 那人, 后来 …) inherits the people
   of the session's last question: 他/她 the first of them, 他们 all of them; with no session
   to inherit from, the answer asks who is meant.
4. Two or more people → `pair` (the two on either side of the widest gap between the names).
5. One person and a journey word (经历, 后来, 结局, 一路, 行踪, 怎么上, 下场 …) → `journey`,
   unless the question also carries more than `MAX_JOURNEY_DETAIL` characters of its own
   content (打老虎那会儿手里的哨棒后来怎么了 asks about one scene, not a course of life). A bare
   "what did he do" (做了什么, 干了哪些) is a journey only with no content of its own.
6. Everything else → `open`.

What is asked is decided here too, once (`Plan.asks` by `kb.answering.asking`, `Plan.moment`,
`Plan.focus`, `Plan.detail` by `kb.answering.details`), and so are the question kinds that may
answer (`Plan.kinds`, by `kb.answering.kinds`): every later step reads the plan. The words are
the language's (`kb.knowledge.language`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from core.text import is_cjk, normalize, to_simplified
from kb.answering.asking import ask_of
from kb.answering.details import FACT_ASKS, asserted_acts, detail_of_kind, moment_of
from kb.answering.kinship import KinLookup, asks_the_relative, with_relatives
from kb.answering.people_index import PeopleIndex
from kb.answering.plan import Plan, PlanKind, Refusal
from kb.answering.wording import asked_form, content_chars, focus_words, has_any, strip_words
from kb.knowledge.language import Language, language
from retrieval.analyzers import clean_query

MAX_JOURNEY_DETAIL = 4
MAX_STRONG_JOURNEY_DETAIL = 8
OPINION_ASKS = ("who", "what", "name", "identity")
"""A reader's judgement (谁的武艺最高) is refused when the question asks one of these of it."""


def plan_for_question(question: str, people: PeopleIndex, previous: Sequence[str] = (),
                      kin_of: KinLookup | None = None, place_chars: str = "",
                      named: Sequence[tuple[str, str]] | None = None) -> Plan:
    """Decide the kind, the people and what is asked (rules in the module docstring); `named`:
    the people the question names, when the caller found them already."""
    lang = language()
    simplified = asked_form(question)
    named = list(people.find(question) if named is None else named)
    unresolved: list[str] = []
    found = with_relatives(normalize(question), named, kin_of, unresolved)
    everyone = list(found)  # the acts the question asserts are read among all it names
    found = _singled_out(asked_form(question), _without_settings(asked_form(question), found, lang),
                         lang)
    ids = list(dict.fromkeys(pid for pid, _ in found))
    follow_up = False
    if not ids and previous and has_any(simplified, lang.words_of("follow_up")):
        plural = has_any(simplified, lang.words_of("plural"))
        ids, follow_up = list(previous) if plural else list(previous[:1]), True
    asked = _asking_text(question, lang)
    cleaned = " ".join(clean_query(asked).split())
    topic = _topic(simplified, found, ids, lang)
    if topic is not None:  # 甲被乙骗上山之后，结局如何: 甲's end, not the pair's story
        ids = [topic]
    every_name = _every_name(found, ids, people, lang)
    focus = focus_words(asked, every_name)
    kind, ids = _kind(simplified, cleaned, found, ids, every_name, place_chars, lang)
    bare = strip_words(simplified, [normalize(n) for n in every_name]).replace(" ", "")
    asks, detail = ask_of(simplified, kind, len(ids), bare)
    if kind == "pair" and asks == "who" and not has_any(simplified, lang.words_of("asks_between")):
        kind = "open"  # 甲去打乙，是谁射死了乙: a third one, not the pair's story (甲和乙谁赢了 is)
    names = [people.people[pid].name for pid in ids]
    if kind == "journey" and asks in FACT_ASKS and focus:
        kind = "open"
        asks, detail = ask_of(simplified, kind, len(ids), bare)
    moment = moment_of(simplified, cleaned, every_name, place_chars) if ids else None
    if asks == "who" and len(ids) == 1 and any(asks_the_relative(simplified, written)
                                               for _, written in found):
        asks = "identity"  # 甲嫁给了谁: the relative the plan resolved is the one asked for
    if asks == "who" and _doer_asked(simplified, found, lang):
        detail = replace(detail, passive=True)  # 生擒甲的是谁: 甲 is the one acted on
    detail = detail_of_kind(simplified, asks, ids, focus, found, detail, moment)
    detail = replace(detail, premises=asserted_acts(simplified, everyone, lang))
    if found != named:  # 甲的管家: the plan's person is 甲's relative, found by the kinship word
        detail = replace(detail, relative=True)
    return Plan(kind, ids, names, cleaned, follow_up, asks, moment, focus, detail,
                tuple(unresolved), question=question, named=tuple(named),
                roles=lang.roles_in(simplified))


def _asking_text(question: str, lang: Language) -> str:
    """The question the focus and the cleaned query are read from: a spending verb cut (花了多少钱:
    the book tells the price), a modal after a why word joined to it (为什么要离开), and 了 between
    a verb and a one-character object taken out (丢了官 is the record's 丢官)."""
    patterns = lang.patterns
    text = patterns.spending.sub(" ", asked_form(question))
    text = patterns.why_modal.sub(r"\1", text)
    return patterns.aspect.sub("", text)


def _every_name(found: Sequence[tuple[str, str]], ids: Sequence[str], people: PeopleIndex,
                lang: Language) -> list[str]:
    """Every form the question's people go by: as written, the parts of a written 甲的妻子 (甲,
    妻子), and all their names and aliases."""
    joints = f"[{re.escape(lang.chars.name_joints)}]"
    return [*(written for _, written in found),
            *(part for _, written in found for part in re.split(joints, written)
              if part != written and len(part) >= 2),
            *(n for pid in ids for n in people.people[pid].all_names)]


def _kind(simplified: str, cleaned: str, found: Sequence[tuple[str, str]], ids: list[str],
          every_name: Sequence[str], place_chars: str, lang: Language
          ) -> tuple[PlanKind, list[str]]:
    """pair, journey or open (rules 4–6), with the plan's people (the pair of three names)."""
    if len(ids) >= 2:
        return "pair", the_pair(simplified, found, ids)
    if len(ids) != 1 or not has_any(simplified, lang.words_of("journey")):
        return "open", ids
    detail_chars = content_chars(cleaned, every_name, (), place_chars)
    limit = (MAX_STRONG_JOURNEY_DETAIL if has_any(simplified, lang.words_of("journey_strong"))
             else MAX_JOURNEY_DETAIL)
    undone = strip_words(simplified, lang.words_of("deeds"))
    if not has_any(undone, lang.words_of("journey")):
        limit = 0
        detail_chars = content_chars(" ".join(clean_query(undone).split()), every_name, (),
                                     place_chars)
    return ("journey" if detail_chars <= limit else "open"), ids


def _doer_asked(text: str, found: Sequence[tuple[str, str]], lang: Language) -> bool:
    """生擒甲的是谁: a name right before 的是谁 is the one the act was done to, and the one who
    did it is asked (官府抓到的是谁, with no name there, asks the one caught)."""
    for _, written in found:
        key = normalize(written)
        at = text.find(key)
        if at >= 0 and lang.patterns.asked_doer.match(text, at + len(key)):
            return True
    return False


def _singled_out(text: str, found: Sequence[tuple[str, str]], lang: Language
                 ) -> list[tuple[str, str]]:
    """The one person a question of several names singles out (甲、乙、丙各有官职，其中乙封的是
    什么官): the one named right after a word that picks one of many."""
    for pid, written in found:
        key = normalize(written)
        for match in re.finditer(re.escape(key), text) if len(key) >= 2 else ():
            if any(text[:match.start()].endswith(w) for w in lang.words_of("singled")):
                return [(p, w) for p, w in found if p == pid]
    return list(found)


SETTING_REACH = 4
"""A word of time this close after a name attacked (打甲时, 打甲回京以后) makes the attack the
question's when."""


def _without_settings(text: str, found: Sequence[tuple[str, str]], lang: Language
                      ) -> list[tuple[str, str]]:
    """The people the question is about, without those a campaign is waged against when someone
    else is named (征甲时乙怎么死的, 打完甲回京乙封了什么官): the campaign is when it happened;
    and without the one who waged it when the campaign has a clause of its own (丙打甲的时候，乙
    是怎么死的)."""
    times = (*lang.words_of("after"), *lang.words_of("frame"), *lang.words_of("setting_time"))
    targets: set[str] = set()
    clauses: list[tuple[int, int]] = []
    for pid, written in found:
        key = normalize(written)
        for match in re.finditer(re.escape(key), text) if len(key) >= 2 else ():
            before = text[max(0, match.start() - 3):match.start()]
            after = text[match.end():match.end() + SETTING_REACH]
            if any(before.endswith(w) for w in lang.words_of("campaign")) or (
                    any(before.endswith(w) for w in lang.words_of("campaign_act"))
                    and any(w in after for w in times)):
                targets.add(pid)
                clauses.append((text.rfind(" ", 0, match.start()) + 1,
                                len(text) if text.find(" ", match.end()) < 0
                                else text.find(" ", match.end())))

    def outside(pid: str, written: str) -> bool:
        key = normalize(written)
        return any(not any(lo <= m.start() < hi for lo, hi in clauses)
                   for m in re.finditer(re.escape(key), text)) if len(key) >= 2 else True

    for drop in ({p for p, w in found if not outside(p, w)}, targets):
        kept = [(pid, w) for pid, w in found if pid not in drop]
        if kept and drop:
            return kept
    return list(found)


def _topic(text: str, found: Sequence[tuple[str, str]], ids: Sequence[str], lang: Language
           ) -> str | None:
    """The one person a question of two names is about, when it asks one person's course of life
    or end (结局, 经历, 做了什么) and the second name is not joined to the first (甲和乙) but
    stands in a clause of the first's story (甲被乙骗上山之后): the first named."""
    if len(ids) < 2 or len(found) < 2:
        return None
    life = lang.words_of("end") + lang.words_of("journey_strong") + lang.words_of("deeds")
    asks_else = lang.words_of("asks_why") + lang.words_of("asks_whether") + lang.words_of("asks_who")
    if has_any(text, asks_else):
        return None
    main = _main_clause_person(text, found, lang)
    if main is not None and has_any(text, (*life, *lang.words_of("journey"))):
        return main  # 甲杀了乙和丙以后，丁后来怎么样了: 丁's course, told after the clause
    if not has_any(text, life):
        return None
    first, second = (normalize(w) for _, w in found[:2])
    start = text.find(first) + len(first)
    gap = text[start:text.find(second, start)] if text.find(second, start) > 0 else ""
    joined = gap.strip(lang.chars.name_joints) in lang.words_of("coordinators") or gap == ""
    return None if joined else found[0][0]


def _main_clause_person(text: str, found: Sequence[tuple[str, str]], lang: Language
                        ) -> str | None:
    """The one person named after the last 以后/之后 of a question whose earlier names all stand
    before it: the subject of the main clause, once the time clause (甲杀了乙以后) is told."""
    afters = [w for w in lang.words_of("after") if w not in lang.words_of("journey")]
    cut = max((text.rfind(w) + len(w) for w in afters if w in text), default=-1)
    if cut <= 0:
        return None
    later = {pid for pid, written in found if text.find(normalize(written), cut) >= cut}
    earlier = {pid for pid, written in found if 0 <= text.find(normalize(written)) < cut}
    return next(iter(later)) if len(later) == 1 and earlier and not later & earlier else None


def the_pair(text: str, found: Sequence[tuple[str, str]], ids: list[str]) -> list[str]:
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


def refused(plan: Plan) -> Plan:
    """The plan marked when its question cannot be looked up at all: no Chinese, a 他 pointing
    nowhere, or a reader's judgement the book never makes (谁的武艺最高)."""
    lang = language()
    question = plan.question
    refusal: Refusal | None = None
    opinion = ""
    judged = lang.patterns.opinion.search(to_simplified(question))
    if not any(is_cjk(ch) for ch in question):
        refusal = "no_cjk"
    elif not plan.person_ids and has_any(normalize(question), lang.words_of("pointing")):
        refusal = "dangling"
    elif judged and plan.asks in OPINION_ASKS:
        refusal, opinion = "opinion", judged.group(0)
    return replace(plan, refusal=refusal, opinion=opinion) if refusal else plan
