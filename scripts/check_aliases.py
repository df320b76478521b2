"""List every name or alias that two or more people of the curated bundle hold.

Usage: .venv/bin/python scripts/check_aliases.py [--names]

People are read as the bundle loader reads them: the person lines of one id in every shard merged
(aliases united), plus the lexicon people the shards refer to without a line of their own. A
string is compared after `core.text.normalize` (script and width folded). Each shared alias is
printed with its holders (id, name, first chapter, the shards whose person line gives it, and how
many events the holder takes part in), so it can be kept on the one person it denotes or dropped.
With --names an alias that is another person's name is listed too. Exit status 1 when anything
is shared.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.text import normalize  # noqa: E402

DATA = ROOT / "kb" / "data" / "shuihu"
SHARDS = DATA / "shards"
LEXICON = DATA / "lexicon.jsonl"


def rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def bundle_people() -> tuple[dict[str, dict], dict[str, int]]:
    """Merged people by id (name, aliases, first chapter, alias → shards) and event counts."""
    people: dict[str, dict] = {}
    events: dict[str, int] = defaultdict(int)
    referenced: set[str] = set()
    for path in sorted(SHARDS.glob("ch*.jsonl")):
        for row in rows(path):
            kind = row.get("record")
            if kind == "person":
                person = people.setdefault(row["id"], {
                    "name": row["name"], "aliases": {}, "first": row.get("first_chapter"),
                    "origin": "shards"})
                if row.get("first_chapter") is not None:
                    person["first"] = min(filter(None, [person["first"], row["first_chapter"]]))
                for alias in row.get("aliases", []):
                    person["aliases"].setdefault(alias, []).append(path.stem)
            elif kind == "event":
                for p in row.get("participants", []):
                    events[p["person"]] += 1
                    referenced.add(p["person"])
            elif kind == "relation":
                referenced.update((row["source"], row["target"]))
            elif kind == "state":
                referenced.add(row["person"])
    for row in rows(LEXICON):
        if row["id"] in referenced and row["id"] not in people:
            people[row["id"]] = {"name": row["name"], "first": row.get("first_chapter"),
                                 "aliases": {a: ["lexicon"] for a in row.get("aliases", [])},
                                 "origin": "lexicon"}
    return people, events


def shared(people: dict[str, dict], with_names: bool) -> dict[str, list[tuple[str, str]]]:
    """normalized string → [(person id, how it is held: 'alias' or 'name')], two holders or more."""
    holders: dict[str, dict[str, str]] = defaultdict(dict)
    for pid, person in people.items():
        for alias in person["aliases"]:
            if alias != person["name"]:
                holders[normalize(alias)].setdefault(pid, "alias")
        if with_names:
            holders[normalize(person["name"])][pid] = "name"
    return {text: sorted(ids.items()) for text, ids in sorted(holders.items())
            if len(ids) > 1 and any(kind == "alias" for kind in ids.values())}


def main(argv: list[str]) -> int:
    people, events = bundle_people()
    found = shared(people, "--names" in argv)
    for text, ids in found.items():
        print(text)
        for pid, kind in ids:
            person = people[pid]
            where = ",".join(sorted({s for a, ss in person["aliases"].items()
                                     if normalize(a) == text for s in ss})) or "-"
            print(f"    {pid:24} {person['name']:8} {kind:5} first {person['first']}, "
                  f"{events.get(pid, 0)} events, in {where}")
    print(f"{len(found)} shared strings among {len(people)} people")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
