"""The detail of the kinds answered their own way, decided once in the plan (`AskDetail`): where
two met, whom someone acted on (甲杀了谁), last words, the chapter of a death, the story of a
chapter named by number, one attribute of a person, a weapon, how someone came to a band or what
came after, the acts a question asserts, a person's own end."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from core.text import normalize, to_simplified
from kb.answering.numerals import chapter_number
from kb.answering.plan import Ask, AskDetail, Asserted, Moment
from kb.answering.wording import content_chars, has_any
from kb.knowledge.language import Language, Role, language

FACT_ASKS = frozenset({"chapter", "how_many", "name", "made_of", "why", "where", "when", "who"})
"""Asks that want one fact: with content of its own, such a question is not a journey
(某人后来被发配去了哪里 asks a place)."""
NOT_JOINING_ASKS = frozenset({"who", "how_many", "name", "made_of", "whether", "identity",
                              "chapter"})
"""Asks about a joining that want something else than the road there (谁引甲上山: a name; 甲上山是
哪一回: the chapter whose title tells it)."""
WEAPON_ASKS = ("what", "name", "made_of", "identity", "how", "relation")
"""用什么兵器 (what), 兵器叫什么 (name), 用什么兵器打仗 (made_of: 用什么); of two people the
planner reads 甲和乙用什么兵器 as their relation."""
AFTER_BAND_ASKS = ("what", "how", "stages")
ATTRIBUTE_ROLES: dict[str, Role] = {"home": "attribute_home", "trade": "attribute_trade",
                                    "gifts": "attribute_gifts", "looks": "attribute_looks",
                                    "named": "attribute_named"}
"""Each attribute of a person a question may ask (kb.answering.attributes), by its words."""
PREMISE_ROLES: dict[str, Role] = {"kill": "asserts_kill", "fight": "asserts_fight",
                                  "capture": "asserts_capture", "rescue": "asserts_rescue",
                                  "persecute": "asserts_persecute", "beat": "asserts_beat"}
"""The acts a question may say happened between its people, by their words."""
PATIENT_REACH = 2
MODIFIER_REACH = 3
"""A 的 this close after a name makes it a modifier (甲带着的乙), not the act's subject; one further
on belongs to a later name (甲在跟乙的头一仗里…)."""
PASSIVE_REACH = 5
"""被 this close before a name makes them the doer, a title between allowed (被节度使甲砍下马)."""
INTENT_REACH = 3
"""A word of intent this close before an act's word (想刺杀, 欲杀) makes it a plan, not a deed."""
"""Characters between an act's word and the name of the one it was done to (杀了乙, 救出乙)."""
MAX_TEMPORAL_DETAIL = 4
"""More content than this (characters) makes a 最后/第一次 question about an episode."""


def detail_of_kind(text: str, asks: Ask, ids: Sequence[str], focus: Sequence[str],
                   found: Sequence[tuple[str, str]], detail: AskDetail, moment: Moment | None
                   ) -> AskDetail:
    """The kinds of question the answer step answers in their own way (module docstring)."""
    lang = language()
    written = [w for _, w in found]
    one = len(ids) == 1
    meeting_words = lang.words_of("meeting")
    death = lang.words_of("death")
    after = has_any(text, lang.words_of("after"))
    band = asked_band(text, lang)
    return replace(
        detail,
        meeting=has_any(text, meeting_words) and all(has_any(w, meeting_words) for w in focus),
        whom=asks == "who" and one and not detail.passive and _asks_whom(text, written, lang),
        last_words=one and has_any(text, lang.words_of("last_words"))
        and has_any(text, lang.words_of("said")),
        death=asks in ("when", "chapter") and one and has_any(text, death)
        and all(has_any(w, death) for w in focus),
        chapter_told=_chapter_told(text, lang),
        attribute=asked_attribute(text, lang) if one else None,
        weapon=len(ids) in (1, 2) and asks in WEAPON_ASKS and not detail.material
        and has_any(text, lang.words_of("weapon")),
        joining=band if one and asks not in NOT_JOINING_ASKS and not after else None,
        after_band=band if one and asks in AFTER_BAND_ASKS and after else None,
        premises=asserted_acts(text, found, lang),
        fate=moment == "ended" and all(any(ch in w for ch in lang.chars.end) for w in focus))


def asserted_acts(text: str, found: Sequence[tuple[str, str]], lang: Language
                  ) -> tuple[Asserted, ...]:
    """The acts the (normalized) question says one named person did to another, longest words
    first: the one acted on is named right after the word (杀了乙) or after 把 before it (把乙打死),
    the one acting before it, or after 被 (甲被乙杀死). A one-character word (杀, 救) counts only
    with the one acted on named (杀乙, not 杀威棒)."""
    spans = sorted({(at, at + len(key), pid) for pid, written in found
                    if len(key := normalize(written)) >= 2 and (at := text.find(key)) >= 0})
    taken: list[tuple[int, int]] = []
    acts: list[tuple[int, Asserted]] = []
    words = sorted(((w, act) for act, role in PREMISE_ROLES.items() for w in lang.words_of(role)),
                   key=lambda wa: -len(wa[0]))
    for word, act in words:
        for match in re.finditer(re.escape(word), text):
            start, end = match.span()
            if any(s < end and start < e for s, e in taken) or \
                    any(s < end and start < e for s, e, _ in spans):
                continue  # a longer word took it, or it is inside a name
            if has_any(text[max(0, start - INTENT_REACH):start], lang.words_of("intent")):
                continue  # 甲想刺杀乙: a plan, which may have failed, is not the act
            clause = _clause_of(text, spans, start, end)
            agent, patient = _roles_of(text, _subjects(text, clause, start, lang), start, end, lang)
            if agent is not None and _sent_by(text, spans, agent, start, lang):
                agent = None  # 被甲派谁杀的: 甲 sent the doer, and the doer is asked
            unresolved = agent is None or patient is None
            if unresolved and (len(word) == 1 or len(clause) != 2 or len(
                    _subjects(text, clause, start, lang)) < len([s for s in clause if s[1] <= start])):
                continue  # the act is done by or to someone the question does not name
            taken.append((start, end))
            acts.append((start, Asserted(act, word, agent, patient)))
    return tuple(a for _, a in sorted(acts, key=lambda f: f[0]))


def _clause_of(text: str, spans: Sequence[tuple[int, int, str]], start: int, end: int
               ) -> list[tuple[int, int, str]]:
    """The names that may act or be acted on: those of the act's own clause when someone stands
    in it before the act, not after 被 (甲被乙围住，丙杀出重围: 丙 acts, not 乙), else every name
    (甲偷渡以后，是怎么被乙活捉的: the clause's subject is 甲, carried over)."""
    passive = language().chars.passive
    clause = [s for s in spans if " " not in text[min(s[1], start):max(s[0], end)]]
    subject = any(e <= start and passive not in text[max(0, s - 2):s] for s, e, _ in clause)
    return clause if subject else list(spans)


def _sent_by(text: str, spans: Sequence[tuple[int, int, str]], agent: str, start: int,
             lang: Language) -> bool:
    """The one read as the doer sent someone asked for (派谁, 叫谁) between their name and the act."""
    ends = [e for _, e, pid in spans if pid == agent and e <= start]
    return bool(ends) and has_any(text[max(ends):start], lang.words_of("sent_whom"))


def _subjects(text: str, spans: Sequence[tuple[int, int, str]], start: int, lang: Language
              ) -> list[tuple[int, int, str]]:
    """The names that may be the act's subject or object: not one that only modifies another
    noun before the act (甲带着的乙: 的 after it), nor one an indefinite doer stands after (甲
    察觉有人要害乙: 有人 acts); names after the act are kept."""
    indefinite = lang.words_of("indefinite")
    out = []
    for s, e, pid in spans:
        between = text[e:start] if e <= start else ""
        if lang.chars.de in between[:MODIFIER_REACH] or any(w in between for w in indefinite):
            continue
        out.append((s, e, pid))
    return out


def _roles_of(text: str, spans: Sequence[tuple[int, int, str]], start: int, end: int,
              lang: Language) -> tuple[str | None, str | None]:
    """Who acts and who is acted on around an act's word at [start, end)."""
    chars = lang.chars
    after = next((pid for s, _, pid in spans if end <= s <= end + PATIENT_REACH), None)
    before = [(s, e, pid) for s, e, pid in spans if e <= start]
    disposed = [pid for s, _, pid in before if any(c in text[max(0, s - 2):s] for c in chars.disposal)]
    passive = [(s, pid) for s, _, pid in before  # 被甲 in the act's own clause
               if chars.passive in text[max(0, s - PASSIVE_REACH):s].split(" ")[-1]
               and " " not in text[s:start]]
    if passive:  # 甲被乙杀死: 乙 acted on the one named before 被
        subject = next((pid for s, _, pid in before if s < passive[-1][0]), None)
        return passive[-1][1], after or subject
    if after is None and disposed:  # 甲把乙打死: 乙 is acted on, 甲 named before 把 acts
        first = next(s for s, _, pid in before if pid == disposed[0])
        return next((pid for s, _, pid in reversed(before) if s < first), None), disposed[0]
    return next((pid for _, _, pid in reversed(before) if pid != after), None), after


def _asks_whom(text: str, written: Sequence[str], lang: Language) -> bool:
    """甲杀了谁: a named person comes before the asking word, nothing asks before them, the
    named one is not acted on (甲被谁杀), and no time clause stands between (甲杀了乙以后投奔了谁)."""
    where = [text.find(k) for k in (normalize(w) for w in written) if len(k) >= 2 and k in text]
    if not where:
        return False
    before, after = text[:min(where)], text[min(where):]
    whom = lang.words_of("whom")
    later = [w for w in lang.words_of("after") if w not in lang.words_of("journey")]
    if has_any(after, later):
        return False  # 甲杀了乙以后投奔了谁: the act asked is the one after the time clause
    return has_any(after, whom) and lang.chars.passive not in after and not has_any(before, whom)


def _chapter_told(text: str, lang: Language) -> int | None:
    """第N回讲了什么, 第N回的主要内容: the story of a chapter named by its number."""
    named = lang.patterns.chapter_named.search(text)
    if named is None or not lang.patterns.story.search(text[named.end():]):
        return None
    return chapter_number(named.group(1))


def asked_attribute(simplified_question: str, lang: Language | None = None) -> str | None:
    """The attribute of one person a question asks for (kb.answering.attributes), by its longest
    asking word."""
    lang = lang or language()
    found = [(len(w), kind) for kind, role in ATTRIBUTE_ROLES.items() for w in lang.words_of(role)
             if w in simplified_question]
    return max(found)[1] if found else None


def asked_band(question: str, lang: Language | None = None) -> str | None:
    """The band a question asks someone joined: its place (某山), "" when it names none (落草),
    None when the question does not ask about joining (上 or 投 alone are not joining: 上京,
    投宿)."""
    lang = lang or language()
    joining = {*lang.words_of("join_marks"), *lang.words_of("join_verbs")}
    for match in lang.patterns.joining.finditer(to_simplified(question)):
        word, place = match.group(1), match.group(2) or ""
        if word in joining or place:
            return place
    return None


def moment_of(text: str, cleaned: str, names: Sequence[str], place_chars: str) -> Moment | None:
    """How the story began or ended, when the question asks that of its people (not of one
    scene: `MAX_TEMPORAL_DETAIL`)."""
    lang = language()
    end_words, start_words = lang.words_of("end"), lang.words_of("start")
    end, start = has_any(text, end_words), has_any(text, start_words)
    if end == start:
        return None
    if content_chars(cleaned, names, (*end_words, *start_words), place_chars) > MAX_TEMPORAL_DETAIL:
        return None
    return "ended" if end else "began"
