"""Who someone is: the person's record — names, profile and the passages it comes from; asked for
a nickname, the nickname first (as the profile gives it: 绰号“甲”, 人称乙)."""

from __future__ import annotations

from core.text import to_simplified
from kb.answering.drafting import Ctx, Draft, Writer, asked_acts, role_form_chars
from kb.knowledge.language import language
from kb.knowledge.models import Person


def nicknames(person: Person) -> list[str]:
    """The person's nicknames as the profile gives them, each one of their aliases."""
    patterns = language().patterns
    said = [m for pattern in (patterns.nickname_given, patterns.nickname_called)
            for m in pattern.findall(person.profile)]
    return [n for n in dict.fromkeys(said) if n in person.aliases]


def compose_profile(person: Person, nickname: bool = False) -> Draft:
    """The person's record; `nickname`: the question asks for the nickname, which comes first."""
    quotes = [(ref.quote, ref.chunk_id) for ref in person.sources if ref.chunk_id][:3]
    aliases = f"，又称{'、'.join(person.aliases)}" if person.aliases else ""
    first = f"，第{person.first_chapter}回出场" if person.first_chapter is not None else ""
    if not person.profile and not quotes:
        return Draft("insufficient", "", f"书中（知识库中）没有{person.name}的介绍。")
    w = Writer()
    named = nicknames(person) if nickname else []
    said = f"{person.name}的绰号是{'、'.join(f'“{n}”' for n in named)}。" if named else ""
    w.add(f"{said}{person.name}{aliases}{first}。{person.profile}")
    for q in quotes:
        w.add("· ", q)
    return w.draft()


def profile_tells(ctx: Ctx, person: Person) -> bool:
    """A question of one-character words only (开, 店) that the person's profile holds every one
    of: the profile, written to tell who someone is, answers it better than a stray sentence."""
    asked = asked_acts(ctx) - role_form_chars()
    profile = to_simplified(person.profile)
    return bool(asked) and all(ch in profile for ch in asked)
