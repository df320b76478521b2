"""The detail of the kinds answered their own way, decided once in the plan (`AskDetail`): where
two met, whom someone acted on (甲杀了谁), last words, the chapter of a death, the story of a
chapter named by number, one attribute of a person, a weapon, how someone came to a band or what
came after, the acts a question asserts, a person's own end."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from core.text import normalize, to_simplified
from kb.answering.numerals import chapter_number
from kb.answering.plan import Ask, AskDetail, Moment
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
PREMISE_ROLES: dict[str, Role] = {"kill": "asserts_kill", "fight": "asserts_fight"}
"""The acts a question may say happened between its people, by their words."""
MAX_TEMPORAL_DETAIL = 4
"""More content than this (characters) makes a 最后/第一次 question about an episode."""


def detail_of_kind(text: str, asks: Ask, ids: Sequence[str], focus: Sequence[str],
                   written: Sequence[str], detail: AskDetail, moment: Moment | None) -> AskDetail:
    """The kinds of question the answer step answers in their own way (module docstring)."""
    lang = language()
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
        premises=tuple(action for action, role in PREMISE_ROLES.items()
                       if has_any(to_simplified(text), lang.words_of(role))),
        fate=moment == "ended" and all(any(ch in w for ch in lang.chars.end) for w in focus))


def _asks_whom(text: str, written: Sequence[str], lang: Language) -> bool:
    """甲杀了谁: a named person comes before the asking word, nothing asks before them, and
    the named one is not acted on (甲被谁杀)."""
    where = [text.find(k) for k in (normalize(w) for w in written) if len(k) >= 2 and k in text]
    if not where:
        return False
    before, after = text[:min(where)], text[min(where):]
    whom = lang.words_of("whom")
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
