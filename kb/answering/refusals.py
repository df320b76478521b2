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
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from itertools import combinations

from core.text import normalize, to_simplified
from kb.answering.dying import forms_of, kill_words, named_at
from kb.answering.people_index import PeopleIndex
from kb.answering.plan import Asserted, Plan
from kb.answering.quantities import has_quantity
from kb.answering.wording import asked_form
from kb.knowledge.genre import genre
from kb.knowledge.language import Role, frames, language
from kb.knowledge.models import RELATION_TYPES
from kb.knowledge.pinyin_names import english_name

MIN_COVERAGE = 0.25
"""An open question is answered only when a sentence of the evidence holds at least this share of
the question's content weight; calibrated on the dev sets (README)."""
KNOWN_COVERAGE = 0.5
"""...or, of a question about one person of the book, when a few sentences about them hold this share
of the weight of the question's words the novel uses, and no word it never uses is the thing
asked: a reader retells the scene in their own words (半路上让一个妇人搭了车), but a thing the
book has not (什么水果, 生日是哪一天) is what is asked. Of two people, a retelling may hide a wrong
premise (甲中了乙的毒箭, when 丙 was shot), so their scene must hold the question itself."""
PREMISE_TYPES: dict[str, frozenset[str]] = {
    "kill": frozenset({"killed"}), "fight": frozenset({"fought", "killed", "enemy"}),
    "capture": frozenset({"captured"}), "rescue": frozenset({"rescuer"}),
    "persecute": frozenset({"persecutor", "killed", "betrayed"}),
    "beat": frozenset({"fought", "killed", "enemy", "persecutor", "captured"})}
"""An act a question asserts (`AskDetail.premises`) → the relation types that would make it
true."""
MUTUAL_ACTS = frozenset({"fight"})
"""Acts two people do together (甲和乙比武): said of both, not of one to the other."""
PREMISE_STATED: dict[str, Role] = {"kill": "states_kill", "fight": "states_fight"}
"""How a sentence of the text states the act: the language's words of that role."""
CLAUSE_BREAK = re.compile(r"[，；：,;:“”「」]")
"""Where a sentence's clauses part (`_clause_states`)."""
NEAR = 8
"""A name answers 那个汉子叫什么 only if it stands this close to 汉子 in a sentence."""
RelationTypes = Mapping[tuple[str, str], set[tuple[str, str, str, str, bool]]]
"""(a, b) → {(relation type, origin, source, target, directed)} of the relations between two
named people."""


def refusal_reason(plan: Plan, book: str) -> str | None:
    """Why a question cannot be looked up at all (`Plan.refusal`), in a reader's words."""
    if plan.refusal is None:
        return None
    return _say(plan, f"refuse.{plan.refusal}", book=book, opinion=plan.opinion)


def _say(plan: Plan, key: str, **fields: object) -> str:
    return frames(plan.lang).phrase(key, **fields)


def _named(plan: Plan, name: str) -> str:
    """A person's name as the answer's language writes it (English: "Pinyin Name (汉字)")."""
    return name if plan.lang == "zh" else english_name(name)


def _names(plan: Plan, names: Sequence[str]) -> str:
    return _say(plan, "sep.list").join(_named(plan, n) for n in names)


def _listed(plan: Plan, words: Sequence[str]) -> str:
    """Words of the question (its focus), listed as they are."""
    return _say(plan, "sep.list").join(words)


def premise_problem(plan: Plan, relation_types: RelationTypes, evidence: Sequence[str],
                    people: PeopleIndex) -> str | None:
    """Why an act the question says happened (`AskDetail.premises`) is neither in the records
    between the two, the right way round (甲活捉乙 is not 乙活捉甲), nor in one evidence sentence
    that tells it of them; None when every asserted act is found."""
    named = list(dict.fromkeys(plan.named_ids))
    if len(named) < 2 or not plan.detail.premises:
        return None
    for asserted in plan.detail.premises:
        if plan.asks == "who" and asserted.act not in MUTUAL_ACTS \
                and (asserted.agent is None) != (asserted.patient is None):
            continue  # 生擒甲、替乙报仇的是谁: the one who did it is the one asked, not named
        directed = asserted.agent is not None and asserted.patient is not None \
            and asserted.agent != asserted.patient
        pairs = [(asserted.agent, asserted.patient)] if directed else list(combinations(named, 2))
        relations = [r for a, b in pairs if a and b
                     for r in relation_types.get((a, b), set()) | relation_types.get((b, a), set())]
        types = PREMISE_TYPES[asserted.act]
        recorded = any(t in types and (not directed or not is_directed or
                                       (source, target) == (asserted.agent, asserted.patient))
                       for t, _, source, target, is_directed in relations)
        curated = any(origin == "curated" for _, origin, *_ in relations)
        # curated relations are complete for their pairs; extracted ones may miss the act
        if not recorded and (curated or _killed_by_another(asserted, named, relation_types)
                             or not _stated(asserted, named, evidence, people)):
            return _false_premise(plan, asserted, named, people, types)
    return None


def _killed_by_another(asserted: Asserted, named: Sequence[str],
                       relation_types: RelationTypes) -> bool:
    """The question says 甲 killed 乙, and the records say another person it names killed 乙 (乙是被
    甲失手打死的，丙为啥替他顶罪, when 丙 killed 乙): one death has one killer."""
    if asserted.act != "kill" or not asserted.agent or not asserted.patient:
        return False
    return any(t == "killed" and target == asserted.patient and source not in (asserted.agent, None)
               for other in named if other not in (asserted.agent, asserted.patient)
               for key in ((other, asserted.patient), (asserted.patient, other))
               for t, _, source, target, _ in relation_types.get(key, set()))


def _false_premise(plan: Plan, asserted: Asserted, named: Sequence[str], people: PeopleIndex,
                   types: frozenset[str]) -> str:
    def name(pid: str) -> str:
        return people.people[pid].name if pid in people.people else pid

    agent = asserted.agent or named[0]
    others = [asserted.patient] if asserted.patient else [p for p in named if p != agent]
    labels = "/".join(frames(plan.lang).relation_labels.get(t, RELATION_TYPES[t])
                      for t in sorted(types))
    key = "premise.false_both" if asserted.act in MUTUAL_ACTS else "premise.false"
    verb = _say(plan, f"premise.act.{asserted.act}", word=asserted.word)  # zh: the question's word
    return _say(plan, key, a=_named(plan, name(agent)), verb=verb,
                others=_names(plan, [name(p) for p in others]), labels=labels)


def _stated(asserted: Asserted, named: Sequence[str], evidence: Sequence[str],
            people: PeopleIndex) -> bool:
    """A sentence that tells the act of two of the people and no one else, the agent before the
    act and the one acted on after it when the question says who did it to whom."""
    lang = language()
    role = PREMISE_STATED.get(asserted.act)
    words = {asserted.word, *(lang.words_of(role) if role else ()),
             *(kill_words() if asserted.act == "kill" else ())}
    for sentence in evidence:
        simplified = to_simplified(sentence)
        found = _with_short_forms(simplified, people.find(sentence), named, people)
        mentioned = {p for p, _ in found}
        if len(mentioned & set(named)) < 2:
            continue
        if not mentioned <= set(named):
            if any(_clause_states(c, asserted, named, words, people)
                   for c in CLAUSE_BREAK.split(simplified)):
                return True
            continue
        at = {p: simplified.find(to_simplified(w)) for p, w in found}
        for word in (w for w in words if w in simplified):
            where = simplified.find(word)
            if asserted.agent is None or asserted.patient is None or (
                    at.get(asserted.agent, -1) < where < at.get(asserted.patient, -1)):
                return True
    return False


def _with_short_forms(simplified: str, found: Sequence[tuple[str, str]], named: Sequence[str],
                      people: PeopleIndex) -> list[tuple[str, str]]:
    """The people a sentence names, and those of the question it names by the given name alone
    where a clause opens or a killing word stands before it (布向前，一刀砍下丁原首级)."""
    out = list(found)
    have = {p for p, _ in found}
    for pid in dict.fromkeys(named):
        if pid in have or pid not in people.people:
            continue
        spans = named_at(simplified, *forms_of(pid, people), kill_words())
        if spans:
            out.append((pid, simplified[spans[0][0]:spans[0][1]]))
    return out


def _clause_states(clause: str, asserted: Asserted, named: Sequence[str], words: set[str],
                   people: PeopleIndex) -> bool:
    """One clause tells the act of two of the people, others named elsewhere in its sentence
    (甲既杀乙，传令…只留丙守城): the doer before the act and the one it is done to after it, no
    doubt between them (欲, 若, 险些 …: a plan, a fear, a narrow escape)."""
    at = {p: clause.find(to_simplified(w)) for p, w in people.find(clause) if p in named}
    if len(at) < 2:
        return False
    agent = asserted.agent or min(at, key=at.__getitem__)
    patient = asserted.patient or max(at, key=at.__getitem__)
    if agent not in at or patient not in at or agent == patient:
        return False
    for word in (w for w in words if w and w in clause):
        where = clause.find(word)
        if at[agent] < where < at[patient] and \
                not genre().fate_doubt.search(clause, at[agent], where):
            return True
    return False


def _asked_person(plan: Plan, named: Sequence[str], people: PeopleIndex) -> str | None:
    """The named person whose own name is asked (某教头的全名), if any."""
    role = plan.detail.role
    return next((p for p in named if role and any(
        role in to_simplified(n) for n in people.people[p].all_names)), None)


def _relative_asked(plan: Plan, named: Sequence[str], people: PeopleIndex,
                    titles: Sequence[str]) -> str | None:
    """The person asked for through a named one (甲的老娘, 甲的女儿; or named so, 甲母) when
    the book knows them only so: every name of theirs is a name of 甲's followed by a word of
    that kin (甲母, 甲之女: the role's characters or their book wordings, 老娘 → 娘, 女儿 → 女)
    or a title (甲娘子)."""
    role = plan.detail.role
    if not role:
        return None
    kin = set(role) | {ch for w in language().wordings.get(role, ()) for ch in w}

    def names(pid: str) -> list[str]:
        return [to_simplified(n) for n in people.people[pid].all_names]

    def only_kin(pid: str, anchor: str) -> bool:
        forms, own = names(anchor), names(pid)
        return pid != anchor and _kin_forms(own, forms, kin) and all(
            _kin_forms([n], forms, kin) or any(t in n for t in titles) for n in own)

    for pid in named:
        found = next((o for o in people.people if only_kin(o, pid)), None) or \
            next((pid for anchor in people.people if only_kin(pid, anchor)), None)
        if found:
            return found
    return None


def _kin_forms(names: Sequence[str], forms: Sequence[str], kin: set[str]) -> bool:
    """Some name is one of `forms` followed by a word of kin (甲之女)."""
    return any(n.startswith(f) and len(n) > len(f) and set(n[len(f):]) & kin
               for n in names for f in forms)


def unknown_name(plan: Plan, named: Sequence[str], people: PeopleIndex,
                 titles: Sequence[str]) -> str | None:
    """A named person's own name is asked, and the knowledge only has titles for them, or names
    them only as another's kin (甲母)."""
    if plan.asks != "name":
        return None
    asked = _asked_person(plan, named, people)
    if asked and _titles_only(people.people[asked].all_names, titles):
        return _say(plan, "unnamed", name=_named(plan, people.people[asked].name))
    relative = None if asked else _relative_asked(plan, named, people, titles)
    if relative:
        return _say(plan, "unnamed", name=_named(plan, people.people[relative].name))
    return None


def _titles_only(names: Iterable[str], titles: Sequence[str]) -> bool:
    """Every name is a title of the corpus profile (某教头: 教头), so the person has no name."""
    return bool(titles) and all(any(t in n for t in titles) for n in names)


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
    return role[-1:] != "" and role[-1] in language().chars.person


def made_of_in(sentence: str, plan: Plan) -> bool:
    """The sentence holds the thing asked about and a material (哨棒 … 木)."""
    text = to_simplified(sentence)
    thing, material = plan.detail.thing, plan.detail.material
    if thing and thing not in text:
        return False
    lang = language()
    wanted = lang.materials.get(material or "", lang.chars.materials)
    return any(ch in text for ch in wanted)


def _focus_text(plan: Plan) -> str:
    return _listed(plan, plan.focus) or _act_text(plan) or _say(plan, "missing.asked")


def _act_text(plan: Plan) -> str:
    """The question's words left once the names are cut (杀 of 甲杀了谁)."""
    text = plan.cleaned
    for name in sorted(plan.names, key=len, reverse=True):
        text = text.replace(name, " ")
    return "".join(text.split())


@cache
def _kind_name() -> re.Pattern[str]:
    """A kind of name and the name the text gives after it (法名某某)."""
    lang = language()
    kinds = "|".join(lang.words_of("name_kinds"))
    return re.compile(f"({kinds}){lang.patterns.kind_name_tail.pattern}")


def kind_of_name(plan: Plan, texts: Sequence[str]) -> str | None:
    """For 甲的法名叫什么: the name the first text gives after the asked kind (法名某某 → 某某)."""
    role = plan.detail.role or ""
    lang = language()
    if role not in lang.words_of("name_kinds"):
        return None
    for text in texts:
        for match in _kind_name().finditer(to_simplified(text)):
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
    who = _names(plan, plan.names)
    if plan.asks == "how_many" and not any(has_quantity(s, plan, people) for s in texts):
        unit = (plan.detail.unit or "") + (plan.detail.noun or "")
        return _say(plan, "missing.count", who=who, what=_focus_text(plan)) + (
            _say(plan, "missing.count_unit", unit=unit) if unit else "")
    if plan.asks == "made_of" and not any(made_of_in(s, plan) for s in texts):
        thing = plan.detail.thing or _focus_text(plan)
        material = plan.detail.material or _say(plan, "missing.material_any")
        return _say(plan, "missing.material", thing=thing, material=material) + (
            _say(plan, "missing.made") if not plan.detail.material else "")
    if plan.asks == "name" and plan.kin:
        return _say(plan, "missing.kin_name", who=who, kin=plan.kin[0])
    if plan.asks in ("who", "identity") and plan.kin:  # 甲的师父是谁: no one on record
        return _say(plan, "missing.kin_who", who=who, kin=plan.kin[0])
    if plan.asks == "name" and (plan.detail.role or "") in language().words_of("name_kinds"):
        return None if kind_of_name(plan, texts) else _say(plan, "missing.name_kind", who=who,
                                                           role=plan.detail.role)
    if plan.asks == "name" and _asked_person(plan, named, people) is None \
            and not (asks_person(plan) and set(record_people) - set(named)):
        role = plan.detail.role or ""
        about = [s for s in sentences if not named or {p for p, _ in people.find(s)} & set(named)]
        beside = {pid for s in about for pid in _near(to_simplified(s), role, people)}
        if not beside - set(named):
            return _say(plan, "missing.name", role=role or _say(plan, "missing.asked_person"))
    if plan.asks == "who":
        in_sentences = {pid for s in sentences for pid, _ in people.find(s)}
        if not (in_sentences | set(record_people)) - set(named):
            if not plan.focus:  # 甲杀了谁 / 谁杀了甲: the act is all the question says
                act = _act_text(plan) or _say(plan, "missing.act")
                return _say(plan, "missing.whom" if plan.detail.whom else "missing.by_whom",
                            who=who, act=act)
            return _say(plan, "missing.who", what=_focus_text(plan))
    return None


def not_stated(plan: Plan, held: float) -> str | None:
    """Whether (有没有, 是否): the records of the people must hold the asked thing
    (`held`: the share of the question's content weight the best of them holds)."""
    if plan.asks != "whether" or held >= MIN_COVERAGE:
        return None
    return _say(plan, "missing.whether", who=_names(plan, plan.names),
                what=_listed(plan, plan.focus) or _say(plan, "missing.this"))


def asked_missing(plan: Plan, forms: Mapping[str, Sequence[str]], held: str) -> bool:
    """A word of the question that stands where it puts the thing it asks — after the asking word
    (什么水果, 哪家纸马铺) or before it (生日是哪一天) — is in none of the evidence (`held`,
    normalized), in none of its forms."""
    text = asked_form(plan.question or plan.cleaned)
    patterns = language().patterns
    for match in patterns.head_one.finditer(text):  # 哪种茶: a one-character thing
        if match.group(1) not in held:
            return True
    for word, written in forms.items():
        for match in re.finditer(re.escape(word), text):
            if (patterns.head_before.search(text[:match.start()])
                    or patterns.head_after.match(text[match.end():])) \
                    and not any(f in held for f in written if f):
                return True
    return False


def not_covered(plan: Plan, weights: Mapping[str, float], best: float, held: str,
                known: float = 0.0, head_missing: bool = True) -> str | None:
    """Coverage: the best sentence holds less than `MIN_COVERAGE` of the question's content
    weight, and the best few sentences less than `KNOWN_COVERAGE` of its known words' weight (or
    the thing asked is not in the evidence: `asked_missing`). The reason names the focus words
    the evidence (`held`, simplified) does not hold."""
    if best >= MIN_COVERAGE or (len(set(plan.person_ids)) == 1 and known >= KNOWN_COVERAGE
                                and not head_missing):
        return None
    lacking = [w for w in plan.focus if not any(
        w[i:i + 2] in held for i in range(max(1, len(w) - 1)))] or list(plan.focus)
    subject = _say(plan, "missing.subject", names=_names(plan, plan.names)) if plan.names else ""
    if not lacking:
        return _say(plan, "missing.nothing", subject=subject)
    words = _say(plan, "sep.words").join(_say(plan, "missing.word", word=w) for w in lacking[:4])
    return _say(plan, "missing.words", words=words, subject=subject)


def normalized(texts: Iterable[str]) -> str:
    """Texts folded for `not_covered` (simplified, punctuation folded, joined)."""
    return "\n".join(normalize(t) for t in texts)
