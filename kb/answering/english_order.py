"""The Chinese question an English one asks, from its items (`kb.answering.english_items`): the
words put in the Chinese order the planner reads, so that "Why did Jia Yi hate Bing Ding?" is
planned as 甲乙为什么恨丙丁 and "Who did Jia Yi kill?" as 甲乙杀了谁.

The rules, in order:
1. A clause of time (before / after / during …, to a comma or the end) stands first, with its
   word after it ("during the campaign against Bing Ding" → 征丙丁时), or after the subject when
   its own subject is the question's ("after he killed Bing Ding" → 甲乙杀了丙丁以后).
2. A question (its clauses of time apart) that is one of the file's templates (what happened to
   * → {1}后来怎么样了) is its template's Chinese, each * a noun phrase.
3. Noun phrases: "N of X" is X的N ("bowls of wine" is 碗酒: a unit joins), "X's N" X的N,
   "his N" 他的N, "N between X and Y" X和Y的N, "chapter 7" 第7回.
4. An asking word followed by an auxiliary (did, was) asks of the subject after it: why and how
   stand after the subject (甲乙为什么恨丙丁, the act after why taking 了), who and what after the
   first verb (甲乙杀了谁, 甲乙用了什么计骗丙丁), or after 是 with no verb (甲乙的父亲是谁);
   was … by is the passive (丙丁被谁杀了). With no auxiliary the asking word is the subject
   (谁杀了丙丁).
5. A question that begins with an auxiliary asks whether (甲乙有没有救过丙丁).
6. Prepositional phrases (at, with, in) and adverbs stand before the verb (在十字坡遇到).
Anything else keeps the English order."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kb.answering.english_items import NP_PARTS, Item
from kb.knowledge.english_words import SLOT, English

ASKS = frozenset({"ask_cause", "ask_adverb", "ask_object", "ask_count", "ask_measure"})
AUX = frozenset({"aux", "aux_past", "copula", "copula_past"})
COPULA = frozenset({"copula", "copula_past"})
VERBS = frozenset({"act", "get", "verb", "event_verb"})
PASSIVE = COPULA | {"get"}
"""Before a past participle, these make the passive (was killed, got killed → 被杀)."""
CLAUSES = frozenset({"clause_after", "clause_before"})
DROPPED = frozenset({"skip", "comma"})
"""Items the main clause drops; a word not read stays, as a bound between noun phrases (two
names with an unknown verb between them are not one phrase)."""


def chinese_question(items: Sequence[Item], file: English) -> str:
    """The Chinese question of the items (rules in the module docstring)."""
    front, after_subject, main = _clauses([i for i in items if i.part != "skip"], file)
    kept = [i for i in main if i.part not in ("unknown", "comma")]
    for pattern, chinese in file.patterns:
        slots = _match(pattern, kept, file)
        if slots is not None:  # a clause whose subject is the question's follows the first name
            names = [_np(s, file) + (after_subject if k == 0 else "") for k, s in enumerate(slots)]
            return front + chinese.format("", *names)
    return front + _main([i for i in main if i.part not in DROPPED], file, after_subject)


def _skipped(word: str, file: English) -> bool:
    found = file.lookup(word)
    return word != SLOT and found is not None and found[0] == "skip"


def _words(item: Item, file: English) -> list[str]:
    return [w for w in item.words if not _skipped(w, file)]


def _match(pattern: Sequence[str], items: Sequence[Item], file: English
           ) -> list[list[Item]] | None:
    """The noun phrases the template's * stand for, or None when the items are not it."""
    if not pattern:
        return [] if not items else None
    if pattern[0] == SLOT:
        for k in range(np_length(items), 0, -1):
            if items[k - 1].part == "poss":  # the 's is the template's own (* 's last words)
                continue
            rest = _match(pattern[1:], items[k:], file)
            if rest is not None:
                return [list(items[:k]), *rest]
        return None
    if not items or items[0].part in ("name", "place"):
        return None
    words = _words(items[0], file)
    if list(pattern[:len(words)]) != words:
        return None
    return _match(pattern[len(words):], items[1:], file)


def np_length(items: Sequence[Item]) -> int:
    """How many of the first items make one noun phrase (a link or 'of' only between two)."""
    n = 0
    while n < len(items) and items[n].part in NP_PARTS:
        if items[n].part in ("link", "genitive", "poss", "prefix") and (
                n + 1 >= len(items) or items[n + 1].part not in NP_PARTS):
            break
        n += 1
    while n and items[n - 1].part in ("link", "genitive", "prefix"):
        n -= 1
    return n


def _np(items: Sequence[Item], file: English) -> str:
    """A noun phrase in Chinese order (rule 3)."""
    de = file.chinese.de
    for k, item in enumerate(items):
        if item.part == "genitive" and 0 < k < len(items) - 1:
            head, tail = items[:k], items[k + 1:]
            if all(h.part in ("unit", "number") for h in head):
                return _np(head, file) + _np(tail, file)
            return _np(tail, file) + de + _np(head, file)
    out: list[str] = []
    numbered = {k + 1 for k, i in enumerate(items) if "{n}" in i.zh}
    for k, item in enumerate(items):
        if k in numbered and item.part == "number":
            continue
        zh = item.zh
        if "{n}" in zh:
            after = items[k + 1] if k + 1 < len(items) else None
            zh = zh.format(n=after.zh if after is not None and after.part == "number" else "")
        if item.part == "link":
            zh = file.chinese.and_
        elif item.part in ("noun", "unit") and k and items[k - 1].part == "pronoun":
            zh = de + zh
        out.append(zh)
    return "".join(out)


def _clauses(items: Sequence[Item], file: English) -> tuple[str, str, list[Item]]:
    """The clauses of time in Chinese — those with a subject of their own, which stand first,
    and those whose subject is the question's (after he died: 死了以后, after the subject) — and
    the rest of the items (rule 2)."""
    front: list[str] = []
    after_subject: list[str] = []
    rest: list[Item] = []
    i = 0
    while i < len(items):
        if items[i].part not in CLAUSES:
            rest.append(items[i])
            i += 1
            continue
        starts = not rest or rest[-1].part == "comma"
        j = i + 1
        while j < len(items) and items[j].part != "comma" and not (
                starts and items[j].part in ASKS | AUX):
            j += 1
        clause = [c for c in items[i + 1:j] if c.part not in DROPPED]
        own = bool(clause) and clause[0].part != "pronoun" and clause[0].part not in VERBS
        clause = clause if own else [c for c in clause if c.part != "pronoun"][:]
        if clause:
            p = _predicate(clause, file)
            done = items[i].part == "clause_after" and bool(p.verb_item and p.verb_item.past) \
                and not p.passive
            (front if own else after_subject).append(_sentence(p, file, done) + items[i].zh)
        i = j
    return "".join(front), "".join(after_subject), rest


@dataclass
class _Predicate:
    """A predicate's parts in Chinese: what stands before the verb (a noun phrase, prepositional
    phrases, adverbs), the first verb, and everything after it."""

    subject: str
    adverbials: str
    verb: str
    verb_item: Item | None
    after: str
    agent: bool
    """A passive 'by' phrase was read (its 被 is in the adverbials)."""
    passive: bool = False
    """The verb was a past participle after was/were (were robbed → 被劫)."""


def _predicate(items: Sequence[Item], file: English) -> _Predicate:
    subject: list[str] = []
    adverbials: list[str] = []
    after: list[str] = []
    verb, agent, passive = "", False, False
    verb_item: Item | None = None
    i = 0
    while i < len(items):
        item = items[i]
        if item.part in PASSIVE and verb_item is None and i + 1 < len(items) and \
                items[i + 1].part in VERBS and items[i + 1].past:  # were robbed → 被劫
            verb, verb_item, passive = file.chinese.by + items[i + 1].zh, items[i + 1], True
            i += 2
            continue
        if item.part in ("coverb", "passive_by"):
            n = np_length(items[i + 1:])
            if n:
                adverbials.append(item.zh + _np(items[i + 1:i + 1 + n], file))
            agent = agent or item.part == "passive_by"
            i += 1 + n
            continue
        if item.part == "adverb":
            adverbials.append(item.zh)
        elif verb_item is None and (item.part in VERBS or item.part in AUX and item.zh):
            verb, verb_item = item.zh, item
        elif item.part in NP_PARTS:
            n = np_length(items[i:]) or 1
            (subject if verb_item is None else after).append(_np(items[i:i + n], file))
            i += n
            continue
        else:
            (subject if verb_item is None else after).append(item.zh)
        i += 1
    if passive and agent and verb.startswith(file.chinese.by):  # was shot … by 甲 → 被甲射
        verb = verb[len(file.chinese.by):]
    return _Predicate("".join(subject), "".join(adverbials), verb, verb_item, "".join(after),
                      agent, passive)


def _sentence(p: _Predicate, file: English, done: bool = False) -> str:
    """Subject, adverbials, the verb (with 了 when `done` and it is an act), the rest."""
    return p.subject + p.adverbials + _verb(p, file, done) + p.after


def _verb(p: _Predicate, file: English, done: bool) -> str:
    acts = p.verb_item is not None and p.verb_item.part in AUX | {"act", "get", "event_verb"}
    return p.verb + (file.chinese.done if done and acts and p.verb else "")


def _main(items: Sequence[Item], file: English, after_subject: str = "") -> str:
    """The main clause (rules 4–6); `after_subject`: the clauses of time that stand after its
    subject (their own subject is the question's)."""
    w = next((k for k, i in enumerate(items) if i.part in ASKS), None)
    if w is None:
        if items and items[0].part in AUX:
            return _whether(items[0], items[1:], file, after_subject)
        return after_subject + _sentence(_predicate(items, file), file)
    before = _sentence(_predicate(items[:w], file), file) if w else ""
    asked = items[w]
    n = np_length(items[w + 1:]) if asked.part in ("ask_object", "ask_count") else 0
    counted = _np(items[w + 1:w + 1 + n], file)
    measure = file.measure_words.get(counted, "") if asked.part == "ask_count" else ""
    wh = asked.zh + measure + counted  # how many tigers → 多少只老虎
    rest = items[w + 1 + n:]
    if rest and rest[0].part in AUX:
        return before + _inverted(asked, wh, rest[0], rest[1:], file, after_subject)
    if wh == file.chinese.who:
        done_to = _done_to(wh, rest, file)
        if done_to:
            return after_subject + before + done_to
    p = _predicate(rest, file)  # the asking word is the subject: 谁写了这首诗
    if p.verb_item is not None and p.verb_item.part == "event_verb":  # 在野猪林发生了什么
        return after_subject + before + p.subject + p.adverbials + _verb(p, file, True) + wh + \
            p.after
    return after_subject + before + wh + p.subject + p.adverbials + _verb(p, file, True) + p.after


def _done_to(wh: str, rest: Sequence[Item], file: English) -> str:
    """Who did an act to someone named: asked of the one it was done to (谁杀了丙丁 → 丙丁被谁杀了,
    the form the planner reads as the doer's question), or "" when the act's object is no name."""
    v = next((k for k, i in enumerate(rest) if i.part in VERBS), None)
    if v is None or rest[v].part != "act" or v + 1 >= len(rest) or rest[v + 1].part != "name":
        return ""
    n = np_length(rest[v + 1:])
    p = _predicate([*rest[:v + 1], *rest[v + 1 + n:]], file)
    return (_np(rest[v + 1:v + 1 + n], file) + p.subject + p.adverbials + file.chinese.by + wh +
            p.verb + file.chinese.done + p.after)


def _inverted(asked: Item, wh: str, aux: Item, rest: Sequence[Item], file: English,
              after_subject: str = "") -> str:
    """An asking word, an auxiliary, then the subject and the predicate (rule 4)."""
    n = np_length(rest)
    subject = _np(rest[:n], file) + after_subject
    p = _predicate(rest[n:], file)
    past = aux.part in ("aux_past", "copula_past") or bool(p.verb_item and p.verb_item.past)
    passive = aux.part in COPULA and p.verb_item is not None and p.verb_item.past and (
        p.agent or asked.part == "ask_object")
    if passive:  # 丙丁被谁杀了, 谁被甲乙杀了
        by = p.adverbials if p.agent and not subject.endswith(p.adverbials) else ""
        if not subject:
            return wh + by + p.verb + file.chinese.done + p.after
        return subject + file.chinese.by + wh + p.verb + file.chinese.done + p.after
    if asked.part in ("ask_adverb", "ask_cause"):
        return subject + p.subject + wh + p.adverbials + _verb(
            p, file, past and asked.part == "ask_cause") + p.after
    if p.verb_item is None:  # 甲乙的父亲是谁; with do and no verb: 甲乙做了什么
        joint = file.chinese.have if asked.part == "ask_measure" else file.chinese.be \
            if aux.part in COPULA else _verb(
            _Predicate("", "", aux.zh, aux, "", False), file, past)
        return subject + p.subject + p.adverbials + joint + wh + p.after
    return subject + p.subject + p.adverbials + _verb(p, file, past) + wh + p.after


def _whether(aux: Item, rest: Sequence[Item], file: English, after_subject: str = "") -> str:
    """Did Jia Yi save Bing Ding? → 甲乙有没有救过丙丁 (rule 5: an act asked whether it
    ever happened takes 过)."""
    n = np_length(rest)
    subject = _np(rest[:n], file) + after_subject
    p = _predicate(rest[n:], file)
    if p.verb_item is None and aux.part in COPULA:
        return subject + file.chinese.whether + file.chinese.be + p.subject + p.after
    if aux.part in COPULA and p.agent and p.verb_item is not None:
        return subject + file.chinese.whether + p.adverbials + p.verb + file.chinese.done + p.after
    ever = file.chinese.ever if p.verb_item is not None and p.verb_item.part == "act" else ""
    return subject + file.chinese.whether + p.subject + p.adverbials + p.verb + ever + p.after
