"""The offline composer: the answer first — one or two sentences that say what was asked, in the
book's terms — then the supporting records and verbatim quotes, each with its block id. Needs no
LLM. What is asked was decided by the planner (`Plan.kind`, `Plan.asks`, `Plan.moment`); this
module only reads it:

- who → the names (an event's participants by role, or the people a sentence names);
- where → the event's place; when / which chapter → 第N回; how many → the number as the book
  gives it (十五碗); a name → the name beside the role; made of → the sentence that says it;
- why → the cause: the matching record's own account, then the events before it;
- how it ended → the fate (the person's last status state); how it began → the first events;
- who someone is → their record; a pair → what they are to each other, where it began, the
  shared events that matter (spread over the book, the end included), the rest counted;
- a journey → one paragraph per stage, in order; how someone came to a band → where they joined,
  then the road there (`kb.answering.joining`); a rank (第几位) → 第N位 as the profile gives it.

Refusals (`kb.answering.refusals`) come first: an answer is given only when the asked thing is
found in a record or a packed block.

This module decides which composer answers (`compose`) and writes the fact answers and a person's
life (fate, killer, last words, journey, the road to a band); the answers about two people are in
`compose_pair`, lists of one person's records in `compose_person`, chapter and campaign stories
in `compose_story`, and what they all share in `drafting`."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from core.text import is_cjk, normalize, to_simplified
from ingest.chunking import chunk_id as block_id_of
from kb.answering.answer_models import StageNote
from kb.answering.compose_pair import (
    CAUSE_CHAPTERS,
    CAUSE_EVENTS,
    compose_pair,
    compose_pair_act,
    compose_pair_why,
    compose_whether,
    pair_act_event,
)
from kb.answering.compose_person import (
    asked_deeds,
    compose_after_band,
    compose_attribute,
    compose_deeds,
    compose_in_arc,
    compose_owned,
    compose_weapons,
    owned_things,
    scenes_at_place,
)
from kb.answering.compose_story import (
    asks_deaths,
    compose_arc_story,
    compose_chapter,
    compose_chapter_story,
    compose_deaths_in_arc,
)
from kb.answering.coverage import Coverage, _forms, best_sentences
from kb.answering.drafting import (
    MIN_RECORD_COVERAGE,
    ROLE_FORM_CHARS,
    BlockOf,
    Ctx,
    Draft,
    Writer,
    account_of,
    asked_acts,
    best_record,
    bigrams,
    book_words,
    chapter_span,
    cite,
    first_quote,
    headline_names,
    record_quote,
    short,
)
from kb.answering.evidence import Gathered
from kb.answering.joining import road_to_band
from kb.answering.numerals import numeral_value
from kb.answering.planner import PeopleIndex, Plan
from kb.answering.quotes import normalized_block, sentence_pairs, sentences
from kb.answering.record_search import participants
from kb.answering.refusals import (
    MIN_COVERAGE,
    NUMBER,
    RelationTypes,
    asks_person,
    asserts_action,
    has_quantity,
    kind_of_name,
    made_of_in,
    missing_part,
    normalized,
    not_covered,
    premise_problem,
    quantities_in,
    quantity_in,
    refuse_question,
    total_in,
    unknown_name,
)
from kb.knowledge.models import Event, Person, Record, Relation, State
from retrieval.analyzers import FUNCTION_CHARS

MAX_QUOTE_CHARS = 80
"""Longer sentences (rosters, verses) are not offered as quotes beside records."""
SUPPORT_RECORDS = 3
SUPPORT_SENTENCES = 3
QUANTITY_SENTENCES = 12
TOTAL_SENTENCES = 400
"""Sentences of the passages searched for a whole count (一共): the 共 sentence may share no
word with the question (前後共喫了十五碗 for 一共喝了几碗酒)."""
MIN_QUANTITY_COVERAGE = 0.1
MIN_CHAR_SHARE = 0.5
"""A sentence about the named people that gives a number with the asked unit answers a how-many
question when it holds this much of the question's content weight."""
PLACE_TIME_ASKS = frozenset({"where", "when", "chapter"})
PAIR_FACT_ASKS = frozenset({"who", "where", "when", "chapter", "how_many", "name", "made_of"})
"""Asked of two people with content of its own, these want one fact, not the pair's story."""
END_CHARS = "死亡寂化终葬"
"""A focus word holding one of these still asks how the person ended (怎么圆寂的); any other
focus (某人的老娘是怎么死的 → 老娘) asks about something else."""


def _about_the_end(plan: Plan) -> bool:
    return all(any(ch in word for ch in END_CHARS) for word in plan.focus)


def compose(g: Gathered, block_of: BlockOf, people: PeopleIndex, question: str,
            df: Callable[[str], int], n_docs: int, relation_types: RelationTypes,
            after: int | None = None) -> Draft:
    """The offline answer for the plan, or `insufficient` with the reason. `after`: the chapter a
    follow-up continues from. A refusal within a named campaign says so: the book may well tell
    it elsewhere."""
    draft = _compose(g, block_of, people, question, df, n_docs, relation_types, after)
    if draft.status != "answered" and g.arc is not None and draft.reason:
        arc = g.arc
        draft.reason = (f"{draft.reason.rstrip('。')}（{arc.words[0]}{arc.period}，"
                        f"第{arc.first}–{arc.last}回）。")
    return draft


def _compose(g: Gathered, block_of: BlockOf, people: PeopleIndex, question: str,
             df: Callable[[str], int], n_docs: int, relation_types: RelationTypes,
             after: int | None) -> Draft:
    plan = g.plan
    reason = refuse_question(question, plan, g.profile.book)
    if reason:
        return Draft("insufficient", "", reason)
    named = [pid for pid, _ in people.find(question)]
    problem = None
    if asserts_action(question) and len(named) >= 2:
        evidence = [s for c in g.packed if (b := block_of(c)) for s in sentences(b.text)]
        problem = premise_problem(question, named, {p: people.people[p].name for p in named},
                                  relation_types, evidence, people)
    problem = problem or unknown_name(plan, named, people, g.profile.titles)
    if problem:
        return Draft("insufficient", "", problem + "。")
    ctx = Ctx(g, block_of, people, df, n_docs)
    fate = plan.moment == "ended" and _about_the_end(plan)
    detail = plan.detail
    if detail.chapter_told is not None:
        return compose_chapter_story(ctx, detail.chapter_told)  # 第N回讲了什么
    if g.arc is not None and not plan.person_ids and plan.asks == "who" and asks_deaths(plan.cleaned) \
            and (died := compose_deaths_in_arc(ctx, g.arc)) is not None:
        return died  # 征某时谁死了: the death states of its chapters
    if g.told_arc is not None and (told := compose_arc_story(ctx, g.told_arc)) is not None:
        return told  # 三打某庄的经过: the campaign's scenes
    if detail.weapon:
        return compose_weapons(ctx)  # 甲用什么兵器: the weapon states, never a stray battle line
    if len(plan.person_ids) == 1 and plan.kind == "open" \
            and detail.attribute is not None:
        # 甲是哪里人, 甲有什么本事: the profile's clauses, or the introduction's; else the
        # records and passages (never a list of deeds whose titles share a character)
        return compose_attribute(ctx) or compose_fact(ctx)
    if plan.kind == "pair" and g.pair is not None and (g.pair.relations or g.pair.shared_events):
        if detail.meeting and plan.asks in ("where", "when", "chapter"):  # 甲在哪里遇到乙
            return _with_passages(compose_pair(ctx, began=True), ctx)
        if plan.asks == "chapter" and g.chapter is not None and plan.moment != "began":
            return compose_chapter(ctx)  # 第一次见面是第几回: the pair's first meeting, below
        if plan.asks == "why":
            return _with_passages(compose_pair_why(ctx), ctx)
        if fate and plan.asks in ("relation", "how", "what", "where"):
            return compose_fate(ctx, plan.person_ids)
        if plan.asks in PLACE_TIME_ASKS and not plan.focus \
                and (act := pair_act_event(ctx)) is not None:
            return compose_pair_act(ctx, act)  # 甲在哪里杀了乙: the scene of that act
        if plan.asks in PAIR_FACT_ASKS and plan.focus:
            return compose_fact(ctx)
        if plan.asks == "whether":
            return compose_whether(ctx)
        return _with_passages(compose_pair(ctx), ctx)
    if detail.joining is not None and (joined := compose_joining(ctx, plan.person_ids[0])):
        return joined  # 甲是怎么上某山的: where they joined, and the road there
    if detail.after_band is not None and (after_joining := compose_after_band(ctx)):
        return after_joining  # 甲上梁山以后做了什么: their scenes after the joining
    if plan.kind == "journey" and g.journey is not None:
        if fate:
            return compose_fate(ctx, plan.person_ids[:1])
        return compose_journey(g, after)
    if plan.asks in ("name", "what") and len(plan.person_ids) == 1 and not detail.whom \
            and not detail.relative and detail.attribute is None \
            and (owned := owned_things(ctx, plan.person_ids[0])):  # not 甲的管家: he is the answer
        return compose_owned(ctx, plan.person_ids[0], owned)  # 甲的马叫什么, 甲会什么法术
    if (plan.asks == "identity" or plan.asks == "name" and not plan.focus) \
            and len(plan.person_ids) == 1:
        # 某绰号叫什么名字, 甲的妻子叫什么名字: the person the plan resolved is the answer
        return compose_profile(people.people[plan.person_ids[0]], question)
    if detail.last_words:
        return compose_last_words(ctx, plan.person_ids[0])  # 甲死前说了什么
    if detail.death:
        return compose_fate(ctx, plan.person_ids)  # 甲是什么时候死的: the chapter of the end
    if plan.asks == "chapter" and g.chapter is not None:
        return compose_chapter(ctx)
    if detail.ordinal and (ranked := _rank(ctx)):  # 甲排第几位: the rank the roster gives
        w = Writer()
        w.add(ranked[0], ranked[1])
        return w.draft()
    if fate and plan.person_ids and plan.asks in ("how", "what", "where", "who"):
        return compose_fate(ctx, plan.person_ids[:1])
    if plan.moment == "began" and g.temporal and plan.asks in ("how", "what"):
        return compose_temporal(ctx)
    if plan.asks == "who" and len(plan.person_ids) == 1 and not detail.whom and (
            any(word.endswith("死") for word in plan.focus) or asked_acts(ctx) & KILLING):
        return compose_killer(ctx, plan.person_ids[0])  # 甲被谁害死的, 谁杀了甲
    if detail.whom:
        done = _done_to(ctx, plan.person_ids[0])
        if done:
            return compose_done_to(ctx, plan.person_ids[0], done)
    if g.arc is not None and len(plan.person_ids) == 1 and plan.asks in ("what", "how"):
        in_arc = compose_in_arc(ctx, g.arc, plan.person_ids[0])
        if in_arc is not None:  # 征某时甲打了哪些仗: the person's scenes of the campaign
            return in_arc
    if plan.asks == "what" and len(plan.person_ids) == 1 \
            and (there := scenes_at_place(ctx, plan.person_ids[0])):
        return compose_deeds(ctx, plan.person_ids[0], there)  # 甲在某地做了什么
    if plan.asks == "what" and not plan.focus and len(plan.person_ids) == 1:
        deeds = asked_deeds(ctx, plan.person_ids[0])
        if deeds:
            return compose_deeds(ctx, plan.person_ids[0], deeds)
        person = people.people[plan.person_ids[0]]
        if _profile_tells(ctx, person):  # 甲开的是什么店: the profile says what he does
            return compose_profile(person, question)
    return compose_fact(ctx)


def _profile_tells(ctx: Ctx, person: Person) -> bool:
    """A question of one-character words only (开, 店) that the person's profile holds every one
    of: the profile, written to tell who someone is, answers it better than a stray sentence."""
    asked = asked_acts(ctx) - ROLE_FORM_CHARS
    profile = to_simplified(person.profile)
    return bool(asked) and all(ch in profile for ch in asked)


# --- fact questions: who, where, when, how many, a name, made of, why, how, what ---------------


def _candidates(ctx: Ctx) -> list[Record]:
    """Records that may answer: the knowledge hits and the named people's own events, about the
    named people when the question names any (extracted scene events only say who was
    together: they point to evidence, never answer)."""
    about = set(ctx.plan.person_ids)
    dead = ctx.g.arc.person if ctx.g.arc is not None else None
    records: list[Record] = [h.record for h in ctx.g.knowledge
                             if isinstance(h.record, Event | Relation | State)]
    for timeline in ctx.g.timelines.values():
        records += [*timeline.events, *timeline.states]
    seen: set[str] = set()
    out = []
    for record in records:
        if record.id in seen or (about and not participants(record) & about):
            continue
        if isinstance(record, Event) and record.origin == "extracted":
            continue
        if isinstance(record, State) and record.kind == "place" and ctx.plan.asks != "where":
            continue  # a stay somewhere holds the place's name, not what happened there
        if ctx.plan.detail.passive and not _acted_on(record, about):
            continue  # 甲被谁活捉: the captures 甲 made do not answer
        if dead is not None and participants(record) <= {dead}:
            continue  # 甲死后…: 甲's own death does not answer what came after it
        seen.add(record.id)
        out.append(record)
    return out


PATIENT_STARTS = ("被", "受", "败")
PATIENT_ENDS = ("死者",)
"""A participant role of someone acted on (被擒者, 受害者, 受伤者, 败者, 败逃者, 死者)."""


def _acted_on(record: Record, about: set[str]) -> bool:
    """The named people are the ones acted on in the record (for 被谁 questions): the target of
    a directed relation, a participant with a patient role; other records are not excluded."""
    if isinstance(record, Relation) and record.directed:
        return record.target in about
    if isinstance(record, Event):
        return any(_patient(p.role) for p in record.participants if p.person in about)
    return True


def _patient(role: str) -> bool:
    return role.startswith(PATIENT_STARTS) or role.endswith(PATIENT_ENDS)


def _about(packed: Sequence[str], block_of: BlockOf, names: Sequence[str]) -> list[str]:
    """The packed blocks that mention the question's people (all blocks when it names none): an
    answer about one person is quoted from passages about them, not from a similar sentence on
    another."""
    if not names:
        return list(packed)
    keys = [k for k in {normalize(n) for n in names} if len(k) >= 2]
    return [c for c in packed
            if (b := block_of(c)) and any(k in normalized_block(b.text) for k in keys)]


def compose_fact(ctx: Ctx) -> Draft:
    """A question that wants one fact, or an account: the record and the sentences that hold the
    most of the question, checked for the asked thing (`refusals`), the answer first."""
    plan = ctx.plan
    weights = ctx.weights()
    about = _about(ctx.g.packed, ctx.block_of, ctx.all_names)
    best = best_sentences(about, ctx.block_of, weights, ctx.g.profile.wordings,
                          limit=SUPPORT_SENTENCES + 1)
    records = _candidates(ctx)
    top = best_record(ctx, weights, records)
    record = top[1] if top and top[0] >= MIN_RECORD_COVERAGE else None
    if plan.asks == "who" and plan.detail.passive:
        record = _actor_record(ctx, records) or _headlined(ctx, weights, records, top) or record
    elif plan.asks == "who" and top is not None and record is not None:
        close = _close_records(ctx, weights, records, top[0])
        labeled = sorted((r for r in close if isinstance(r, Relation)
                          and any(f in r.label for f in plan.focus)),
                         key=lambda r: not any(f in r.description for f in plan.focus))
        # 甲和谁私通: the relation of that type, not another whose account mentions it
        record = labeled[0] if labeled else _actor_record(ctx, close) or record
    elif plan.asks == "name" and plan.detail.role and top is not None and record is not None:
        # 甲痛打的那个强人叫什么: of the events of the scene's chapter, the one where someone
        # else suffered the asked act (被打者), not the host of the night before
        asked_act = asked_acts(ctx) - ROLE_FORM_CHARS
        chapter = getattr(record, "chapter", None)
        record = next((r for r in records if isinstance(r, Event) and r.chapter == chapter
                       and any(p.person not in plan.person_ids and _suffered(p.role, asked_act)
                               for p in r.participants)), record)
    elif plan.asks == "where" and top is not None and record is not None:
        close = _close_records(ctx, weights, records, top[0])
        record = next((r for r in close if _headline_holds(r, plan.focus)), record)
    elif plan.asks == "why" and top is not None and record is not None and plan.person_ids:
        # 甲为什么上山: the event that is the asked act of the asked person, its first time
        names = [n for n in map(to_simplified, ctx.all_names) if len(n) >= 2]
        acts = [r for r in _close_records(ctx, weights, records, top[0]) if isinstance(r, Event)
                and _headline_holds(r, plan.focus) and headline_names(r, names)]
        if not acts:  # 离开梁山: the book's word for the act (辞别) may share no bigram with it
            said = book_words(plan.focus, ctx.g.profile.wordings)
            acts = [r for r in records if isinstance(r, Event) and headline_names(r, names)
                    and any(w in r.title for w in said)]
        record = min(acts, key=lambda e: e.order) if acts else record
    elif plan.asks == "who" and plan.person_ids:  # 谁杀了甲: nothing to weigh but the act
        record = _actor_record(ctx, [r for r in records if _acted_on(r, set(plan.person_ids))
                                     and not isinstance(r, Relation | State)]) or record
    top_sentence = best[0][0] if best else 0.0
    if plan.asks == "how_many":  # the sentences that give a number come first
        counted = [b for b in best_sentences(about, ctx.block_of, weights, ctx.g.profile.wordings,
                                             limit=QUANTITY_SENTENCES)
                   if b[0] > 0 and has_quantity(b[1], plan, ctx.people)] or _counted_by_chars(ctx, about)
        whole = _whole_counts(ctx, about, weights)
        if not plan.detail.total and counted:  # a part of the scene's count (三碗 of 十五碗)
            whole = [b for b in whole if _same_chapter(ctx, b[2], counted[0][2])
                     and _whole_count(b[1], ctx) > _whole_count(counted[0][1], ctx)]
        if whole:  # 一共, or the scene's 共 sentence: the whole count comes first
            counted = whole[:1] + [b for b in counted if b not in whole[:1]]
        if counted:
            best = counted[:SUPPORT_SENTENCES]
            if counted[0][0] >= MIN_QUANTITY_COVERAGE:
                top_sentence = max(top_sentence, MIN_COVERAGE)
    texts = [s for _, s, _ in best] + ([ctx.render(record)] if record else [])
    reason = not_covered(plan, weights, max(top_sentence, top[0] if top else 0.0) if weights
                         else (1.0 if best or record else 0.0), normalized(texts))
    if reason:
        return Draft("insufficient", "", reason + "。")
    record_people = participants(record) if record else set()
    lacking = missing_part(plan, [s for _, s, _ in best], record_people, ctx.people,
                           [ctx.render(record)] if record else [])
    if lacking:
        return Draft("insufficient", "", lacking + "。")
    w = Writer()
    lead = _lead(ctx, record, best)
    if lead:
        w.add(lead[0], lead[1])
    if record is not None and plan.asks == "why":
        for event in _events_before(ctx, record):
            w.add(f"· 此前，第{event.chapter}回 {event.title}：{short(event.summary)}",
                  record_quote(event))
    if record is not None and not (lead and lead[2]):
        w.add(f"· {_record_line(ctx, record)}", record_quote(record))
    shown = {record.id} if record else set()
    for other in _supporting(ctx, records, weights, shown):
        w.add(f"· {_record_line(ctx, other)}", record_quote(other))
    quoted = {q[0] for q in w.quotes}
    for score, sentence, chunk_id in best[:SUPPORT_SENTENCES]:
        if (score > 0 or not weights) and sentence not in quoted \
                and _same_scene(ctx, record, chunk_id):
            w.add("· 原文：", (sentence, chunk_id))
    return w.draft()


def _same_scene(ctx: Ctx, record: Record | None, chunk_id: str) -> bool:
    """A passage shown beside an event's account comes from the event's chapter: one sharing a
    word with the question elsewhere (the word in a poem chapters away) is not its source."""
    if not isinstance(record, Event):
        return True
    block = ctx.block_of(chunk_id)
    return block is None or block.chapter == record.chapter


CLOSE_COVERAGE = 0.8
"""Records within this share of the best coverage are equally good accounts of the scene."""


def _close_records(ctx: Ctx, weights: dict[str, float], records: Sequence[Record],
                   best: float) -> list[Record]:
    """The records that cover the question almost as well as the best one, in their order."""
    covered = Coverage(weights, {t: _forms(t, ctx.g.profile.wordings) for t in weights})
    return [r for r in records if covered(ctx.render(r)) >= CLOSE_COVERAGE * best]


def _headlined(ctx: Ctx, weights: dict[str, float], records: Sequence[Record],
               top: tuple[float, Record] | None) -> Record | None:
    """Among the records that tell the scene about equally well, the first whose headline holds
    the asked thing (连环马被谁破了 → 钩镰枪大破连环马, not a relation that mentions the horses)."""
    if top is None or top[0] < MIN_RECORD_COVERAGE:
        return None
    close = _close_records(ctx, weights, records, top[0])
    return next((r for r in close if _headline_holds(r, ctx.plan.focus)), None)


def _actor_record(ctx: Ctx, records: Sequence[Record]) -> Event | None:
    """For 甲被谁V: the event in which the named person is acted on and someone else's role
    names the asked act (被谁射死 → 射箭者, 被谁活捉 → 活捉者); for 谁V了X, among the records
    that tell the scene about equally well, the one whose actor's role names the act (打虎者,
    not the 离去者 of the walk up the hill). The book and the records word the
    outcome differently (中箭, 身亡), the actor's role keeps the verb; the record that covers the
    question's words best may name no one acting (the dying man's last words)."""
    acts = asked_acts(ctx)
    named = set(ctx.plan.person_ids)
    if not acts or (ctx.plan.detail.passive and not named):
        return None
    for record in records:
        if isinstance(record, Event) and any(
                p.person not in named and not _patient(p.role) and acts & set(p.role)
                for p in record.participants):
            return record
    return None


def _counted_by_chars(ctx: Ctx, about: Sequence[str]) -> list[tuple[float, str, str]]:
    """How many, when no sentence shares a word with the question (一天能走 / 日行): the
    sentences that give the number with the unit and hold `MIN_CHAR_SHARE` of the question's
    own characters (names and function characters left out), best first."""
    text = to_simplified(ctx.plan.cleaned)
    for name in sorted(map(to_simplified, ctx.all_names), key=len, reverse=True):
        text = text.replace(name, " ")
    chars = {ch for ch in text if is_cjk(ch) and ch not in FUNCTION_CHARS}
    if not chars:
        return []
    found = []
    for rank, chunk_id in enumerate(about):
        block = ctx.block_of(chunk_id)
        for written, simplified in sentence_pairs(block.text) if block else ():
            if has_quantity(written, ctx.plan, ctx.people):
                share = len(chars & set(simplified)) / len(chars)
                if share >= MIN_CHAR_SHARE:
                    found.append((share, -rank, written, chunk_id))
    found.sort(reverse=True)
    return [(MIN_QUANTITY_COVERAGE, w, c) for _, _, w, c in found[:SUPPORT_SENTENCES]]


def _record_line(ctx: Ctx, record: Record) -> str:
    if isinstance(record, Event):
        place = f"（{record.place}）" if record.place else ""
        return f"第{record.chapter}回 {record.title}{place}：{short(record.summary, 80)}"
    if isinstance(record, Relation):
        arrow = "→" if record.directed else "与"
        return (f"{ctx.name(record.source)}{arrow}{ctx.name(record.target)}：{record.label}。"
                f"{short(record.description, 80)}")
    if isinstance(record, State):
        return (f"{ctx.name(record.person)} 第{record.chapter}回起 {record.value}："
                f"{short(record.description, 80)}")
    return short(ctx.render(record), 80)


def _supporting(ctx: Ctx, records: Sequence[Record], weights: dict[str, float],
                shown: set[str]) -> list[Record]:
    """Up to `SUPPORT_RECORDS` more records that hold some of the question's words."""
    if not weights:
        return []
    covered = Coverage(weights, {t: _forms(t, ctx.g.profile.wordings) for t in weights})
    scored = [(covered(ctx.render(r)), i, r)
              for i, r in enumerate(records) if r.id not in shown]
    scored = [s for s in scored if s[0] >= MIN_RECORD_COVERAGE]
    scored.sort(key=lambda s: (-s[0], s[1]))
    return [r for _, _, r in scored[:SUPPORT_RECORDS]]


Lead = tuple[str, tuple[str, str] | None, bool]
"""(the lead sentence, its quote, whether it already states the record)."""


def _lead(ctx: Ctx, record: Record | None, best: Sequence[tuple[float, str, str]]
          ) -> Lead | None:
    """The sentence that answers what the plan asks (rules in the module docstring)."""
    plan = ctx.plan
    sentence = (best[0][1], best[0][2]) if best else None
    quote = record_quote(record) if record else sentence
    where = f"（第{record.chapter}回 {record.title}）" if isinstance(record, Event) else ""
    if plan.asks == "who":
        names = _who(ctx, record, best)
        if names:
            return f"{names}。{where}", quote, False
    if plan.asks == "where":
        place = _place(record) or _place_then(ctx, record)
        if place and isinstance(record, State):
            return f"在{place}（第{record.chapter}回 {record.value}）。", quote, False
        if place and isinstance(record, Event):
            return f"在{place}{where}。{short(record.summary)}", quote, True
        if place:
            return f"在{place}。", quote, False
    if plan.asks in ("when", "chapter") and isinstance(record, Event | State):
        title = record.title if isinstance(record, Event) else record.value
        return f"第{record.chapter}回：{title}。", quote, False
    if plan.asks in ("when", "chapter") and isinstance(record, Relation) and record.sources \
            and record.sources[0].chapter is not None:  # where the relation (the act) begins
        return f"第{record.sources[0].chapter}回：{_record_line(ctx, record)}", quote, True
    if plan.asks == "how_many":
        return _number(ctx, record, best)
    if plan.asks == "name":
        texts = ([ctx.render(record)] if record is not None else []) + [s for _, s, _ in best]
        kind = kind_of_name(plan, texts)
        if kind:
            who = "、".join(plan.names)
            return f"{who}的{plan.detail.role}是{kind}。{where}", quote, False
        found = _who(ctx, record, best) if record is not None and asks_person(plan) \
            else _names_beside(ctx, best)
        if found:
            return f"{found}。{where}", quote if record is not None else sentence, False
    if plan.asks == "made_of":
        said = next(((s, c) for _, s, c in best if made_of_in(s, plan)), None)
        if said:
            return "书中写道：", said, False
    if plan.asks == "why" and record is not None:
        return f"原因：{account_of(ctx, record)}", quote, True
    if record is not None:
        return _record_line(ctx, record), quote, True
    if sentence:
        return "书中写道：", sentence, False
    return None


def _who(ctx: Ctx, record: Record | None, best: Sequence[tuple[float, str, str]]) -> str:
    """The people a who-question asks for: the record's participants by role (the question's
    own people left out), else the people the best sentence names."""
    named = set(ctx.plan.person_ids)
    if ctx.g.arc is not None and ctx.g.arc.person:  # 甲死后谁…: the dead man is no answer
        named.add(ctx.g.arc.person)
    passive = ctx.plan.detail.passive
    if isinstance(record, Event):
        by_role: dict[str, list[str]] = {}
        for p in record.participants:
            if p.person not in named and not (passive and _patient(p.role)):
                by_role.setdefault(p.role, []).append(ctx.name(p.person))
        acting = {r: ns for r, ns in by_role.items() if asked_acts(ctx) & set(r)}
        by_role = acting or by_role  # 被谁射死: the archer, not the men who carried him off
        if by_role:
            return "；".join(f"{'、'.join(ns)}（{role}）" for role, ns in by_role.items())
    if isinstance(record, Relation):
        other = [p for p in (record.source, record.target) if p not in named]
        if other:
            return f"{'、'.join(ctx.name(p) for p in other)}（{record.label}）"
    if isinstance(record, State) and record.person not in named and not passive:
        return f"{ctx.name(record.person)}（{record.value}）"  # 谁当了寨主: the one who holds it
    if isinstance(record, State):
        told = [pid for pid, _ in ctx.people.find(record.value + record.description)
                if pid not in named]
        if told:  # the first named is the one who acted (被甲活捉，送…交乙收管)
            return f"{ctx.name(told[0])}（{record.value}）"
    if passive and record is not None:
        return ""  # the record that answers names no one acting: no guess from a sentence
    for _, sentence, _ in best:
        found = [pid for pid, _ in ctx.people.find(sentence) if pid not in named]
        if found:
            return "、".join(dict.fromkeys(ctx.name(p) for p in found))
    return ""


def _headline_holds(record: Record, focus: Sequence[str]) -> bool:
    """The record's headline (an event's title, a state's value, a relation's label) holds a
    content word of the question (a bigram of it: 刺配到 → 刺配): the record is about that act,
    not a mention of it."""
    headline = (record.title if isinstance(record, Event) else record.value
                if isinstance(record, State) else record.label if isinstance(record, Relation)
                else "")
    return any(b in headline for b in bigrams(focus))


def _place_then(ctx: Ctx, record: Record | None) -> str | None:
    """Where the person of a state was when it began, when the state itself names that place
    (出家为僧, 在五台山文殊院剃度 → the place state 五台山文殊院 of that chapter)."""
    if not isinstance(record, State):
        return None
    timeline = ctx.g.timelines.get(record.person)
    if timeline is None:
        return None
    told = record.value + record.description  # only a place the record itself names
    places = [s for s in timeline.states if s.kind == "place" and s.chapter <= record.chapter
              <= (s.until_chapter or s.chapter) and s.value in told]
    return places[-1].value if places else None


def _place(record: Record | None) -> str | None:
    if isinstance(record, Event):
        return record.place
    if isinstance(record, State) and record.kind == "place":
        return record.value
    return None


def _number(ctx: Ctx, record: Record | None, best: Sequence[tuple[float, str, str]]
            ) -> Lead | None:
    """How many: the numeral with the question's unit as the book gives it (十五碗): from the
    record that answers the question when it gives one (a curated account of the scene: the
    signboard's 三碗不过冈 is not what the hero drank), else from the best sentence."""
    if best and total_in(best[0][1], ctx.plan):  # 一共, or the scene's whole (`_whole_counts`)
        found = quantity_in(to_simplified(best[0][1]), ctx.plan, ctx.people)
        if found:
            return f"{found}。", (best[0][1], best[0][2]), False
    beside = _quantity_after_act(ctx, best)
    if beside:
        return f"{beside[0]}。", beside[1], False
    counted = ctx.plan.detail.counted
    if isinstance(record, Event) and counted and ctx.plan.detail.unit:  # 杀四虎: 四只
        titled = re.search(f"({NUMBER}){re.escape(ctx.plan.detail.unit)}?{re.escape(counted[-1])}",
                           record.title)
        if titled:
            return (f"{titled.group(1)}{ctx.plan.detail.unit}。{_record_line(ctx, record)}",
                    record_quote(record), True)
    if record is not None:
        found = quantity_in(to_simplified(ctx.render(record)), ctx.plan, ctx.people)
        if found:
            return f"{found}。{_record_line(ctx, record)}", record_quote(record), True
    for _, sentence, chunk_id in best:
        found = quantity_in(to_simplified(sentence), ctx.plan, ctx.people)
        if found:
            return f"{found}。", (sentence, chunk_id), False
    return None


RANK_WINDOW = 8
"""How many characters before a 第N位 a word of the question may stand (排座次居第1位)."""


def _rank(ctx: Ctx) -> Lead | None:
    """第几位: the rank the person's profile gives beside a word of the question (排座次居第1位,
    not another list's 第1位 when the question asks the seating), quoted from the source that
    names them most fully (the roster a rank is read from gives star, nickname and name)."""
    if len(ctx.plan.person_ids) != 1:
        return None
    person = ctx.people.people[ctx.plan.person_ids[0]]
    unit = re.escape(ctx.plan.detail.unit) if ctx.plan.detail.unit else "[位名把]?"
    words = bigrams(ctx.plan.focus)
    profile = to_simplified(person.profile)
    for match in re.finditer(f"第([0-9]+|{NUMBER}){unit}", profile):
        before = profile[max(0, match.start() - RANK_WINDOW):match.start()]
        if any(w in before for w in words):
            clause = profile[:match.end()].rsplit("；", 1)[-1].rsplit("。", 1)[-1]
            names = [to_simplified(n) for n in person.all_names if len(n) >= 2]
            sources = sorted((r for r in person.sources if r.chunk_id),
                             key=lambda r: (sum(n in to_simplified(r.quote) for n in names),
                                            r.chapter or 0))
            quote = (sources[-1].quote, sources[-1].chunk_id or "") if sources else None
            return f"{match.group(0)}（{clause}）。", quote, False
    return None


def _whole_counts(ctx: Ctx, about: Sequence[str], weights: Mapping[str, float]
                  ) -> list[tuple[float, str, str]]:
    """The passages' sentences that give a whole count of the asked unit (共, `total_in`), of
    the counted thing when one is asked, the largest count first."""
    plan = ctx.plan
    whole = [b for b in best_sentences(about, ctx.block_of, weights, ctx.g.profile.wordings,
                                       limit=TOTAL_SENTENCES) if total_in(b[1], plan)]
    counted_forms = _forms(plan.detail.counted, ctx.g.profile.wordings) \
        if plan.detail.counted else ()
    whole = [b for b in whole if not counted_forms
             or any(f in to_simplified(b[1]) for f in counted_forms)] or whole
    return sorted(whole, key=lambda b: -_whole_count(b[1], ctx))  # a story's count grows


def _same_chapter(ctx: Ctx, chunk_a: str, chunk_b: str) -> bool:
    a, b = ctx.block_of(chunk_a), ctx.block_of(chunk_b)
    return a is not None and b is not None and a.chapter == b.chapter


def _whole_count(sentence: str, ctx: Ctx) -> int:
    """The value of the count a 共 sentence gives (0 when it cannot be read): a story's count
    grows (四十位 in one chapter, 一百单八员 later), and 一共 asks the whole."""
    found = quantity_in(to_simplified(sentence), ctx.plan, ctx.people)
    return (numeral_value(found) or 0) if found else 0


ACT_BEFORE_NUMBER = 3
"""How many characters before a quantity the asked act may stand (要卖三千贯, 一日能行八百里)."""


def _quantity_after_act(ctx: Ctx, best: Sequence[tuple[float, str, str]]
                        ) -> tuple[str, tuple[str, str]] | None:
    """A quantity the asked act governs: a sentence where the question's verb, or the book's
    word for it, stands just before the number (开价 → 要卖三千贯), whatever else the sentence
    counts (the coins he cut, 二十文, are counted by another act)."""
    acts = bigrams(ctx.plan.focus) | book_words([to_simplified(ctx.plan.cleaned)],
                                                  ctx.g.profile.wordings)
    act = ctx.plan.detail.act
    if act:  # 卖了多少钱: the one-character verb, and the book's one-character words for it
        acts |= {act} | {f for f in ctx.g.profile.wordings.get(act, ()) if len(f) == 1}
    if not acts:
        return None
    for _, sentence, chunk_id in best:
        text = to_simplified(sentence)
        found = [m.group(0) for m in quantities_in(text, ctx.plan, ctx.people)
                 if any(a in text[max(0, m.start() - ACT_BEFORE_NUMBER - 2):m.start()]
                        for a in acts)]
        if found:  # 一日能行五百里…便一日能行八百里: every one the sentence gives
            return "、".join(dict.fromkeys(found)), (sentence, chunk_id)
    return None


def _names_beside(ctx: Ctx, best: Sequence[tuple[float, str, str]]) -> str:
    named = set(ctx.plan.person_ids)
    for _, sentence, _ in best:
        found = [pid for pid, _ in ctx.people.find(sentence) if pid not in named]
        if found:
            return "、".join(dict.fromkeys(ctx.name(p) for p in found))
    return ""


def _events_before(ctx: Ctx, record: Record) -> list[Event]:
    """The named people's events just before the asked one (within `CAUSE_CHAPTERS`)."""
    if not isinstance(record, Event):
        return []
    before: dict[str, Event] = {}
    for timeline in ctx.g.timelines.values():
        for event in timeline.events:
            if event.order < record.order and record.chapter - event.chapter <= CAUSE_CHAPTERS:
                before[event.id] = event
    ordered = sorted(before.values(), key=lambda e: e.order)
    return ordered[-CAUSE_EVENTS:]


# --- pairs -------------------------------------------------------------------------------------


def _with_passages(draft: Draft, ctx: Ctx) -> Draft:
    """A pair question that also asks something specific gets the sentences that answer it."""
    weights = ctx.weights()
    best = [b for b in best_sentences(ctx.g.packed, ctx.block_of, weights, ctx.g.profile.wordings,
                                      limit=2) if b[0] >= MIN_RECORD_COVERAGE]
    if draft.status != "answered" or not weights or not best:
        return draft
    quoted = [normalize(q[0]) for q in draft.quotes]
    fresh = [(s, c) for _, s, c in best if not any(q in normalize(s) for q in quoted)]
    if fresh:
        draft.answer += "\n相关原文：\n" + "\n".join(f"· {cite(q)}" for q in fresh)
        draft.quotes += fresh
    return draft


# --- journeys, fates, beginnings ---------------------------------------------------------------

MAX_STAGE_EVENTS = 6
"""Event titles named in one stage's paragraph; the rest are counted."""


def _stage_note(titles: Sequence[str], states: Sequence[str], others: int) -> str:
    named = "；".join(titles[:MAX_STAGE_EVENTS]) or "；".join(states)
    more = others + max(0, len(titles) - MAX_STAGE_EVENTS)
    return named + (f"；另有 {more} 件事" if more > 0 else "")


def compose_journey(g: Gathered, after: int | None = None) -> Draft:
    """One paragraph per stage, in order: its chapters and place, its key events, the rest
    counted, a quote. A follow-up (`after` a chapter) keeps the stages that go on past it."""
    assert g.journey is not None
    person = g.journey.person.name
    all_stages = g.journey.stages
    later = [s for s in all_stages if after is not None and s.chapters and max(s.chapters) > after]
    shown = later or all_stages
    if not shown:
        return Draft("insufficient", "", f"书中（知识库中）没有{person}的经历。")
    w = Writer()
    first, last = shown[0], shown[-1]
    since = f"第{after}回以后，" if later else ""
    w.add(f"{person}{since}的经历分{len(shown)}个阶段：从“{first.title}”"
          f"（{chapter_span(first.chapters)}）到“{last.title}”（{chapter_span(last.chapters)}）。")
    stages = []
    for i, stage in enumerate(shown, start=1):
        note = _stage_note([e.title for e in stage.events], [s.value for s in stage.states],
                           stage.other_events)
        stage_quotes = [q for q in (first_quote([s]) for s in stage.sources[:2]) if q]
        place = f"，{stage.place}" if stage.place else ""
        # what happens: the stage's title event (the 12th stage of a hero is his death, not the
        # dream that opens its chapter), else its first key event
        top = next((e for e in stage.events if e.title == stage.title),
                   stage.events[0] if stage.events else None)
        told = f"{short(top.summary, 50)}。" if top is not None and top.summary else ""
        stages.append(StageNote(title=stage.title, chapters=stage.chapters, note=note))
        w.add(f"{i}. {stage.title}（{chapter_span(stage.chapters)}{place}）：{told}{note}。",
              stage_quotes[0] if stage_quotes else None)
        w.quotes += stage_quotes[1:]
    return w.draft(stages)


def compose_joining(ctx: Ctx, person_id: str) -> Draft | None:
    """Where the person joined the asked band, then the road there in book order (rules in
    kb.answering.joining); None when their records do not say they joined it."""
    timeline = ctx.g.timelines.get(person_id)
    road = road_to_band(timeline, ctx.plan.detail.joining or "") if timeline else None
    if road is None:
        return None
    w = Writer()
    joined = road.joined
    what, told = ((joined.value, joined.description) if isinstance(joined, State)
                  else (joined.title, joined.summary))
    w.add(f"{ctx.name(person_id)}第{joined.chapter}回{what}：{short(told, 90)}。",
          record_quote(joined))
    if road.steps:
        w.add("经过（按书中顺序）：")
    for event in road.steps:
        w.add(f"· 第{event.chapter}回 {event.title}：{short(event.summary)}", record_quote(event))
    return w.draft()


def _fate(ctx: Ctx, person_id: str) -> tuple[State | None, list[Event]]:
    """A person's last status state and their last events."""
    timeline = ctx.g.timelines.get(person_id)
    if timeline is None:
        return None, []
    statuses = [s for s in timeline.states if s.kind == "status"]
    return (statuses[-1] if statuses else None), timeline.events[-2:]


def compose_fate(ctx: Ctx, person_ids: Sequence[str]) -> Draft:
    """How it ended: each person's last status state (death, departure …), then their last
    events with quotes."""
    w = Writer()
    events: dict[str, Event] = {}
    for person_id in person_ids:
        status, last = _fate(ctx, person_id)
        name = ctx.name(person_id)
        if status is not None:
            w.add(f"{name}的结局（第{status.chapter}回）：{status.value}。"
                  f"{short(status.description, 90)}", record_quote(status))
        elif last:
            w.add(f"{name}最后的事（第{last[-1].chapter}回）：{last[-1].title}。")
        events.update({e.id: e for e in last})
    if not w.lines:
        return compose_fact(ctx)
    for event in sorted(events.values(), key=lambda e: e.order):
        w.add(f"· 第{event.chapter}回 {event.title}：{short(event.summary)}", record_quote(event))
    return w.draft()


MAX_WHOM = 12


def _done_to(ctx: Ctx, person_id: str) -> list[tuple[str, Event]]:
    """The people the named person did the asked act to (甲杀了谁 → each 被杀者 of the events
    where 甲's own role holds 杀), first time each, in book order."""
    timeline = ctx.g.timelines.get(person_id)
    acts = asked_acts(ctx) - ROLE_FORM_CHARS
    if timeline is None or not acts:
        return []
    done: dict[str, Event] = {}
    events = [e for e in timeline.events
              if any(p.person == person_id and acts & set(p.role) for p in e.participants)]
    where = bigrams(ctx.plan.focus)
    there = [e for e in events if any(b in f"{e.title}{e.place or ''}" for b in where)]
    for event in there or events:  # 在鸳鸯楼杀了哪些人: the scene the question names
        for p in event.participants:
            if p.person != person_id and p.person not in done and _suffered(p.role, acts):
                done[p.person] = event
    if not done and ctx.plan.detail.meeting:
        # 甲在某处遇到了谁: everyone in 甲's scenes at the place the question names
        for event in (e for e in timeline.events
                      if any(b in f"{e.title}{e.place or ''}" for b in where)):
            for p in event.participants:
                if p.person != person_id and p.person not in done:
                    done[p.person] = event
    return list(done.items())


KILLING = frozenset("杀死斩")
DEAD_ROLES = ("死", "亡", "被杀", "被斩")


def _suffered(role: str, acts: set[str]) -> bool:
    """The participant is the one the act was done to: a kill's dead (死者, 阵亡者), else a
    patient whose role names the act (被救者 for 救), not whoever else was in the scene."""
    if acts & KILLING:
        return any(m in role for m in DEAD_ROLES)
    return _patient(role) and bool(acts & set(role))


def compose_done_to(ctx: Ctx, person_id: str, done: Sequence[tuple[str, Event]]) -> Draft:
    """Whom the person did the asked act to, each with where, in book order, the rest counted."""
    w = Writer()
    shown = done[:MAX_WHOM]
    said = "、".join(f"{ctx.name(p)}（第{e.chapter}回）" for p, e in shown)
    more = f"等{len(done)}人" if len(done) > len(shown) else f"，共{len(done)}人"
    w.add(f"{said}{more}。")
    for event in {e.id: e for _, e in shown}.values():
        w.add(f"· 第{event.chapter}回 {event.title}：{short(event.summary)}", record_quote(event))
    return w.draft()


LAST_WORDS_SPAN = 4
"""Sentences before the death's own quote searched for the last speech (from its opening 「), and
sentences taken after a 颂曰 / 曰 that follows it."""


VERSE_REACH = 8
"""Characters after the death's quote within which a 颂曰 / 曰 opens what was written."""


def compose_last_words(ctx: Ctx, person_id: str) -> Draft:
    """甲死前说了什么: the speech just before the passage of the death (the sentences before the
    death state's quote in its block that hold a 「 or a 道), then the death itself."""
    status, _ = _fate(ctx, person_id)
    quote = record_quote(status) if status is not None and "死" in status.value else None
    block = ctx.block_of(quote[1]) if quote else None
    if status is None or quote is None or block is None:
        return compose_fate(ctx, [person_id])
    said = sentences(block.text)
    at = next((i for i, sentence in enumerate(said) if quote[0] in sentence), None)
    if at is None:
        return compose_fate(ctx, [person_id])
    starts = [i for i in range(max(0, at - LAST_WORDS_SPAN), at) if "「" in said[i]]
    spoken = [(x, block.id) for x in said[starts[-1]:at]] if starts else []
    rest = block.text[block.text.find(quote[0]) + len(quote[0]):]
    if "曰" in rest[:VERSE_REACH]:  # 颂曰: what was written follows the death
        written = [(x, block.id) for x in said[at + 1:]]
        after = ctx.block_of(block_id_of(block.chapter, block.index + 1)) if not written else None
        written += [(x, after.id) for x in sentences(after.text)] if after else []
        spoken = written[:LAST_WORDS_SPAN] or spoken
    if not spoken:
        return compose_fate(ctx, [person_id])
    joined = [spoken[0]]
    for text, chunk_id in spoken[1:]:  # sentences that follow each other are one quote
        last, last_id = joined[-1]
        whole = ctx.block_of(chunk_id)
        if chunk_id == last_id and whole is not None and last + text in whole.text:
            joined[-1] = (last + text, chunk_id)
        else:
            joined.append((text, chunk_id))
    w = Writer()
    w.add(f"{ctx.name(person_id)}临终（第{status.chapter}回）：", joined[0])
    for sentence in joined[1:]:
        w.add("· ", sentence)
    w.add(f"· {ctx.name(person_id)}的结局（第{status.chapter}回）：{status.value}。"
          f"{short(status.description, 90)}", quote)
    return w.draft()


DYING_ROLES = ("死", "亡", "被杀", "被害", "中箭", "中毒", "受伤")
"""A participant role of someone who dies in the event, or takes the wound that kills (死者, 阵亡者,
被杀者, 中箭者, 受伤者 in the chapter of the death)."""
AGENT_MARKS = ("被", "中", "遭")
"""In a death's wording the one who caused it follows these (被甲打死, 中乙毒箭); a name elsewhere
in it (剜心祭丙) is not the hand."""


def compose_killer(ctx: Ctx, person_id: str) -> Draft:
    """甲被谁害死的: the hand in the person's death, not whoever wronged them once (a framing
    chapters before is 陷害, not the death). The events of the death's chapter (and the one
    before) in which the person is acted on are asked who acted; with no one named there, the
    death itself is the answer (shot from a city wall: the book names no archer), or the people
    its record names."""
    status, _ = _fate(ctx, person_id)
    timeline = ctx.g.timelines.get(person_id)
    if status is None or "死" not in status.value or timeline is None:
        return compose_fact(ctx)
    dying = [e for e in timeline.events if status.chapter - 1 <= e.chapter <= status.chapter
             and any(p.person == person_id and any(m in p.role for m in DYING_ROLES)
                     for p in e.participants)]
    event = _actor_record(ctx, dying[::-1])
    w = Writer()
    if event is not None:
        w.add(f"{_who(ctx, event, [])}。（第{event.chapter}回 {event.title}）"
              f"{short(event.summary, 90)}", record_quote(event))
    else:
        value = to_simplified(status.value)
        told = [pid for pid, written in ctx.people.find(value) if pid != person_id
                and any(f"{mark}{to_simplified(written)}" in value for mark in AGENT_MARKS)]
        if not told:
            return compose_fate(ctx, [person_id])
        w.add(f"{'、'.join(dict.fromkeys(ctx.name(t) for t in told))}。（第{status.chapter}回 "
              f"{status.value}）", record_quote(status))
    w.add(f"· {ctx.name(person_id)}的结局（第{status.chapter}回）：{status.value}。"
          f"{short(status.description, 90)}", record_quote(status))
    return w.draft()


def compose_temporal(ctx: Ctx) -> Draft:
    """How it began: the earliest events of the person, in book order, each with its quote, and
    the block's first sentence that names the person when the event's quote does not."""
    persons = [ctx.people.people[p] for p in ctx.plan.person_ids]
    keys = [k for p in persons for k in {normalize(n) for n in p.all_names} if len(k) >= 2]
    w = Writer()
    first = ctx.g.temporal[0]
    w.add(f"{'、'.join(p.name for p in persons)}最早的事在第{first.chapter}回：{first.title}。"
          f"{short(first.summary)}")
    for event in ctx.g.temporal:
        q = record_quote(event)
        w.add(f"· 第{event.chapter}回 {event.title}", q)
        block = ctx.block_of(q[1]) if q else None
        if q and block and not any(k in normalize(q[0]) for k in keys):
            named = next((s for s in sentences(block.text) if len(s) <= MAX_QUOTE_CHARS
                          and any(k in normalize(s) for k in keys)), None)
            if named:
                w.add("  ", (named, block.id))
    return w.draft()


# --- who is this, which chapter ----------------------------------------------------------------

NICKNAME_ASK = ("绰号", "外号", "诨名", "诨号", "别号", "称号", "江湖上叫")
NICKNAME_SAID = (
    re.compile(r"(?:绰号|人称|外号|诨名|诨号|号称|唤做|称为)[为是作]?[“「\"]([^”」\"]{2,6})[”」\"]"),
    re.compile(r"人称([\u4e00-\u9fff]{2,6}?)(?=[，。；、])"))
"""How a profile gives a nickname: 绰号“甲”, 人称乙。"""


def nicknames(person: Person) -> list[str]:
    """The person's nicknames as the profile gives them, each one of their aliases."""
    said = [m for pattern in NICKNAME_SAID for m in pattern.findall(person.profile)]
    return [n for n in dict.fromkeys(said) if n in person.aliases]


def compose_profile(person: Person, question: str = "") -> Draft:
    """The person's record: names, profile and the passages it comes from; asked for a nickname,
    the nickname first."""
    quotes = [(ref.quote, ref.chunk_id) for ref in person.sources if ref.chunk_id][:3]
    aliases = f"，又称{'、'.join(person.aliases)}" if person.aliases else ""
    first = f"，第{person.first_chapter}回出场" if person.first_chapter is not None else ""
    if not person.profile and not quotes:
        return Draft("insufficient", "", f"书中（知识库中）没有{person.name}的介绍。")
    w = Writer()
    named = nicknames(person) if any(w in to_simplified(question) for w in NICKNAME_ASK) else []
    said = f"{person.name}的绰号是{'、'.join(f'“{n}”' for n in named)}。" if named else ""
    w.add(f"{said}{person.name}{aliases}{first}。{person.profile}")
    for q in quotes:
        w.add("· ", q)
    return w.draft()


