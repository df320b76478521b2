"""Measure a learned relation typer against the cue rules: is the words-around-a-pair model worth it?

The model (scikit-learn, `pip install -e '.[model]'`): one document per pair of people named in
one sentence — every such sentence of the book, the two masked as 甲/乙 and anyone else as 丙,
speech marked — as character 1–3-grams (tf-idf), and a logistic regression on the pair's first
curated relation type (or `none`). It is trained on the curated 水浒 records (labelled data) with
the curated lexicon as the roster, and measured twice:

1. on 水浒, half of the pairs held out (seeded): precision and recall of the types it gives, beside
   the cue rules' whole-book pair + type figures (`kbx extract report`);
2. on another book built from its text alone (`--corpus`, people discovered from the text): the
   pairs of an eval file (`--pairs`, the format of eval/kb/pairs_dev.jsonl) whose expected types
   hold the model's top type, beside the rules', and, with `--bundle` (the extracted bundle of that
   book, `kbx extract --no-gate`), the pairs right when its typed relations (above `--threshold`)
   are added — written to `--out` for `kbx kb eval --bundle`.

    .venv/bin/python scripts/relation_model.py --corpus ../shared/corpus/sanguo/zh-hans \\
        --pairs eval/sanguo/pairs_dev.jsonl --bundle var/sanguo/bundle --out /tmp/with_model

Nothing here runs in the build: the figures decide whether it should (see extract/README.md).
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from core.settings import DEFAULT_BUNDLE, DEFAULT_CORPUS  # noqa: E402
from extract.corpus_tables import read_tables  # noqa: E402
from extract.cues import default_cues  # noqa: E402
from extract.discover import discover_lexicon  # noqa: E402
from extract.names import Roster, read_lexicon  # noqa: E402
from extract.scene import BlockScan  # noqa: E402
from extract.text import ChapterTexts, window  # noqa: E402
from ingest.chunking import Block, chunk_corpus  # noqa: E402
from ingest.corpus import read_corpus  # noqa: E402
from kb.knowledge.bundle import KnowledgeBundle, bundle_from_records, load_bundle, write_bundle  # noqa: E402
from kb.knowledge.models import Relation, SourceRef  # noqa: E402

Pair = tuple[str, str]


def contexts(blocks: Iterable[Block], roster: Roster) -> dict[Pair, list[tuple[str, Any, Any]]]:
    """pair → (masked sentence, scan, segment) for every sentence naming both."""
    cues = default_cues(roster.tables)
    found: dict[Pair, list[tuple[str, Any, Any]]] = collections.defaultdict(list)
    for block in blocks:
        scan = BlockScan(block, roster, cues)
        for seg in scan.segments:
            people = sorted({m.person for m in seg.mentions})
            if seg.verse or len(people) < 2:
                continue
            for i, a in enumerate(people):
                for b in people[i + 1:]:
                    found[(a, b)].append((_masked(scan.text, seg, a, b), scan, seg))
    return found


def _masked(text: str, seg: Any, a: str, b: str) -> str:
    chars = list(text[seg.span.start:seg.span.end])
    for m in seg.mentions:
        tag = "甲" if m.person == a else "乙" if m.person == b else "丙"
        for k in range(m.start - seg.span.start, m.end - seg.span.start):
            chars[k] = tag if k == m.start - seg.span.start else ""
    return ("S" if seg.speech else "N") + "".join(chars)


def first_types(bundle: KnowledgeBundle) -> dict[Pair, str]:
    """pair → the type of its first curated relation (by its first source's chapter)."""
    def first(r: Relation) -> int:
        return min([s.chapter for s in r.sources if s.chapter is not None] or [10**6])

    labels: dict[Pair, str] = {}
    for relation in sorted(bundle.relations, key=first):
        a, b = sorted((relation.source, relation.target))
        labels.setdefault((a, b), relation.type)
    return labels


def train(docs: dict[Pair, list[tuple[str, Any, Any]]], labels: dict[Pair, str],
          pairs: Sequence[Pair], c: float) -> tuple[Any, Any]:
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    vectorizer = TfidfVectorizer(analyzer="char", ngram_range=(1, 3), min_df=2, sublinear_tf=True)
    x = vectorizer.fit_transform([" ".join(d for d, _, _ in docs[p]) for p in pairs])
    model = LogisticRegression(max_iter=3000, C=c).fit(x, [labels.get(p, "none") for p in pairs])
    return vectorizer, model


def predict(vectorizer: Any, model: Any, docs: dict[Pair, list[tuple[str, Any, Any]]],
            pairs: Sequence[Pair]) -> dict[Pair, list[tuple[float, str]]]:
    """pair → (probability, type) of every type but `none`, best first."""
    classes = list(model.classes_)
    rows = model.predict_proba(vectorizer.transform([" ".join(d for d, _, _ in docs[p])
                                                     for p in pairs]))
    return {p: sorted(((float(v), classes[i]) for i, v in enumerate(row)
                       if classes[i] != "none"), reverse=True) for p, row in zip(pairs, rows, strict=True)}


def held_out(docs: dict[Pair, list[tuple[str, Any, Any]]], labels: dict[Pair, str], c: float,
             thresholds: Sequence[float]) -> None:
    pairs = sorted(docs)
    random.Random(0).shuffle(pairs)
    train_on, test_on = pairs[:len(pairs) // 2], pairs[len(pairs) // 2:]
    vectorizer, model = train(docs, labels, train_on, c)
    guesses = predict(vectorizer, model, docs, test_on)
    gold = sum(1 for p in test_on if p in labels)
    for threshold in thresholds:
        typed = [(p, g[0][1]) for p, g in guesses.items() if g and g[0][0] >= threshold]
        right = sum(1 for p, t in typed if labels.get(p) == t)
        print(f"水浒 held-out pairs, threshold {threshold}: typed {len(typed)}, right {right}, "
              f"precision {right / max(len(typed), 1):.3f}, recall {right / max(gold, 1):.3f} "
              f"(of {gold} pairs with a curated relation)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--pairs", type=Path)
    parser.add_argument("--bundle", type=Path)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--threshold", type=float, default=0.1)
    parser.add_argument("--c", type=float, default=16.0)
    args = parser.parse_args()
    started = time.perf_counter()
    blocks = chunk_corpus(read_corpus(DEFAULT_CORPUS), 600)
    roster = Roster.build(read_lexicon(DEFAULT_BUNDLE / "lexicon.jsonl"), read_tables(DEFAULT_BUNDLE))
    labels = first_types(load_bundle(DEFAULT_BUNDLE, blocks))
    docs = contexts(blocks, roster)
    held_out(docs, labels, args.c, (0.2, 0.3, 0.4))
    if args.corpus is None:
        return 0
    vectorizer, model = train(docs, labels, sorted(docs), args.c)
    print(f"trained on all 水浒 pairs in {time.perf_counter() - started:.0f} s")
    chapters = read_corpus(args.corpus)
    other_blocks = chunk_corpus(chapters, 600)
    texts = ChapterTexts(other_blocks, {c.number: c.title for c in chapters})
    other = Roster.build(discover_lexicon(texts).entries)
    other_docs = contexts(other_blocks, other)
    guesses = predict(vectorizer, model, other_docs, sorted(other_docs))
    if args.pairs is not None:
        hits = 0
        for line in args.pairs.read_text(encoding="utf-8").splitlines():
            case = json.loads(line) if line.strip() else None
            if case is None:
                continue
            ids = other.resolve(case["a"]), other.resolve(case["b"])
            pair = tuple(sorted(i or "?" for i in ids))
            top = guesses.get(pair, [])  # type: ignore[call-overload]
            hit = bool(top) and top[0][1] in case["relation_types"]
            hits += hit
            print(f"  {case['id']}: model {top[0][1] if top else '—'} "
                  f"({top[0][0] if top else 0:.2f}) {'✓' if hit else '✗'}")
        print(f"pairs whose expected types hold the model's top type: {hits}")
    if args.bundle is not None and args.out is not None:
        bundle = load_bundle(args.bundle, other_blocks)
        have = {(tuple(sorted((r.source, r.target))), r.type) for r in bundle.relations}
        added = [r for r in (_relation(p, g, other_docs[p], texts, args.threshold)
                             for p, g in guesses.items()) if r is not None
                 and (tuple(sorted((r.source, r.target))), r.type) not in have]
        print(f"typed relations added above {args.threshold}: {len(added)}")
        write_bundle(bundle_from_records(
            people=bundle.people, events=bundle.events, relations=[*bundle.relations, *added],
            states=bundle.states, chapters=bundle.chapters, blocks=other_blocks), args.out)
    return 0


def _relation(pair: Pair, guesses: list[tuple[float, str]], docs: list[tuple[str, Any, Any]],
              texts: ChapterTexts, threshold: float) -> Relation | None:
    if not guesses or guesses[0][0] < threshold:
        return None
    probability, type_ = guesses[0]
    refs = []
    for _, scan, seg in docs:
        named = [m for m in seg.mentions if m.person in pair]
        span = window(scan.text, seg.span, named[0].start, named[-1].end)
        quote = None if span is None else texts.unique_quote(scan.block, seg.span, span)
        if quote is not None:
            refs.append(SourceRef(chapter=scan.block.chapter, quote=quote, chunk_id=scan.block.id))
        if len(refs) == 3:
            break
    if not refs:
        return None
    return Relation(id=f"xml_{pair[0]}_{pair[1]}_{type_}", source=pair[0], target=pair[1],
                    type=type_, directed=False, chapters=sorted({r.chapter or 0 for r in refs}),
                    sources=refs, confidence=round(probability, 3), origin="extracted",
                    description="relation model (words around the pair)")


if __name__ == "__main__":
    raise SystemExit(main())
