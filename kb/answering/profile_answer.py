"""Who someone is: the person's record — names, profile and the passages it comes from; asked for
a nickname, the nickname first (as the profile gives it: 绰号“甲”, 人称乙)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.text import to_simplified
from kb.answering.attributes import is_roster
from kb.answering.drafting import Ctx, Draft, Writer, asked_acts, role_form_chars
from kb.knowledge.language import language
from kb.knowledge.models import Person


def nicknames(person: Person) -> list[str]:
    """The person's nicknames as the profile gives them, each one of their aliases."""
    patterns = language().patterns
    said = [m for pattern in (patterns.nickname_given, patterns.nickname_called)
            for m in pattern.findall(person.profile)]
    return [n for n in dict.fromkeys(said) if n in person.aliases]


def compose_profile(ctx: Ctx, person: Person, nickname: bool = False) -> Draft:
    """The person's record; `nickname`: the question asks for the nickname, which comes first."""
    quotes = [(ref.quote, ref.chunk_id) for ref in person.sources if ref.chunk_id][:3]
    sep = ctx.say("sep.list")
    aliases = ctx.say("profile.aliases", aliases=sep.join(person.aliases)) if person.aliases else ""
    first = ctx.say("profile.first", chapter=person.first_chapter) \
        if person.first_chapter is not None else ""
    name = ctx.name(person.id)
    if not person.profile and not quotes:
        return Draft("insufficient", "", ctx.say("profile.none", name=name))
    w = Writer()
    named = nicknames(person) if nickname else []
    said = ctx.say("profile.nickname", name=name, nicknames=sep.join(
        ctx.say("profile.quoted", name=n) for n in named)) if named else ""
    w.add(ctx.say("profile.lead", said=said, name=name, aliases=aliases, first=first,
                  profile=_who_first(person.profile, ctx.book.profile.roster_marks)))
    for q in quotes:
        w.add(ctx.say("item"), q)
    return w.draft()


def profile_tells(ctx: Ctx, person: Person) -> bool:
    """A question of one-character words only (开, 店) that the person's profile holds every one
    of: the profile, written to tell who someone is, answers it better than a stray sentence."""
    asked = asked_acts(ctx) - role_form_chars()
    profile = to_simplified(person.profile)
    return bool(asked) and all(ch in profile for ch in asked)


def _who_first(profile: str, roster_marks: Sequence[str]) -> str:
    """The profile with the sentences that say who the person is before the book's roster
    sentences (rank, star, post: the profile's `roster_marks`)."""
    sentences = [s for s in re.split(r"(?<=。)", profile) if s]
    return "".join([*(s for s in sentences if not is_roster(s, roster_marks)),
                    *(s for s in sentences if is_roster(s, roster_marks))])
