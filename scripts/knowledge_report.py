"""Figures of the curated bundle for README: counts, vague relation share, and the 108 heroes'
nicknames, star names and fates (each a state with a quote)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.settings import Settings  # noqa: E402
from ingest.chunking import chunk_corpus  # noqa: E402
from ingest.corpus import read_corpus  # noqa: E402
from kb.knowledge.bundle import load_bundle  # noqa: E402
from kb.knowledge.shards import relation_type_shares  # noqa: E402

FATE_FROM = 110
"""The campaign against 方腊 and the end: a hero's last status or office is told from here on."""


def main() -> int:
    settings = Settings()
    bundle = load_bundle(settings.bundle, chunk_corpus(read_corpus(settings.corpus),
                                                       settings.chunk_size))
    lexicon = [json.loads(line) for line in
               (settings.bundle / "lexicon.jsonl").read_text(encoding="utf-8").splitlines()
               if line.strip()]
    heroes = [row for row in lexicon if row.get("rank") and row["rank"] <= 108]
    people = {p.id: p for p in bundle.people}
    missing: Counter[str] = Counter()
    for hero in heroes:
        person = people.get(hero["id"])
        if person is None:
            missing["person"] += 1
            continue
        if hero.get("star") not in person.aliases:
            missing["star"] += 1
        if not any(a for a in person.aliases if a != hero.get("star") and len(a) >= 2):
            missing["nickname"] += 1
        fates = [s for s in bundle.states if s.person == hero["id"] and s.chapter >= FATE_FROM
                 and s.kind in ("status", "title") and s.sources]
        if not fates:
            missing["fate"] += 1
            print("no fate:", hero["name"])
    vague, total = relation_type_shares(bundle.relations)
    report = {"counts": bundle.counts(), "quotes": sum(len(r.sources) for r in bundle.records()),
              "vague_relations": vague, "vague_share": round(vague / total, 4),
              "heroes": len(heroes), "heroes_missing": dict(missing)}
    print(json.dumps(report, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
