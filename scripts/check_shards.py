"""Check curated chapter shards while they are written: one line per record, every quote verbatim.

Usage: python3 scripts/check_shards.py [CHAPTER ...]   (no chapter = every shard present)

A shard is kb/data/shuihu/shards/chNNN.jsonl: one JSON object a line, each with "record"
(person | event | relation | state | chapter) plus the fields of that record in kb/models.py.
Quotes are checked against the raw chapter file: exact substring, found exactly once.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.knowledge.models import (  # noqa: E402
    ChapterSummary,
    Event,
    Person,
    Relation,
    State,
)

SHARDS = ROOT / "kb" / "data" / "shuihu" / "shards"
CORPUS = ROOT.parent / "shared" / "corpus" / "shuihu" / "zh-hant"
LEXICON = ROOT / "kb" / "data" / "shuihu" / "lexicon.jsonl"
MODELS = {"person": Person, "event": Event, "relation": Relation, "state": State,
          "chapter": ChapterSummary}
VAGUE = {"acquaintance", "colleague"}
NAME_LIST = re.compile(r"同场|、.*、.*(在场|相见)$")


def chapter_text(chapter: int) -> str:
    return (CORPUS / f"{chapter:03d}.txt").read_text(encoding="utf-8")


def read_shard(path: Path) -> list[tuple[int, dict]]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            rows.append((number, json.loads(line)))
    return rows


def known_people() -> set[str]:
    ids = {json.loads(line)["id"] for line in LEXICON.read_text(encoding="utf-8").splitlines()
           if line.strip()}
    for path in SHARDS.glob("ch*.jsonl"):
        for _, row in read_shard(path):
            if row.get("record") == "person":
                ids.add(row["id"])
    return ids


def all_event_ids() -> set[str]:
    ids = set()
    for path in SHARDS.glob("ch*.jsonl"):
        for _, row in read_shard(path):
            if row.get("record") == "event":
                ids.add(row["id"])
    return ids


def check_quotes(where: str, sources: list[dict], problems: list[str]) -> None:
    for ref in sources:
        chapter, quote = ref.get("chapter"), ref.get("quote", "")
        if chapter is None:
            problems.append(f"{where}: source without chapter: {quote!r}")
            continue
        text = chapter_text(chapter)
        count = text.count(quote)
        if count == 0:
            problems.append(f"{where}: quote not verbatim in chapter {chapter}: {quote!r}")
        elif count > 1:
            problems.append(f"{where}: quote found {count} times in chapter {chapter}; "
                            f"make it longer: {quote!r}")
        if not 4 <= len(quote) <= 80:
            problems.append(f"{where}: quote length {len(quote)} outside 4..80: {quote!r}")


def check(chapter: int, people: set[str], events: set[str]) -> tuple[list[str], Counter]:
    path = SHARDS / f"ch{chapter:03d}.jsonl"
    problems: list[str] = []
    counts: Counter = Counter()
    try:
        rows = read_shard(path)
    except json.JSONDecodeError as exc:
        return [f"{path.name}: invalid JSON: {exc}"], counts
    seen: set[str] = set()
    for number, row in rows:
        where = f"{path.name}:{number}"
        kind = row.pop("record", None)
        if kind not in MODELS:
            problems.append(f"{where}: kind must be one of {', '.join(MODELS)}")
            continue
        counts[kind] += 1
        try:
            record = MODELS[kind].model_validate(row)
        except Exception as exc:  # pydantic's message names the field
            problems.append(f"{where}: {row.get('id')}: {exc}".replace("\n", " "))
            continue
        where = f"{where}: {record.id}"
        if record.id in seen:
            problems.append(f"{where}: duplicate id in this shard")
        seen.add(record.id)
        check_quotes(where, row.get("sources", []), problems)
        if isinstance(record, Event):
            if not record.id.startswith(f"ev_ch{chapter:03d}_"):
                problems.append(f"{where}: event id must start with ev_ch{chapter:03d}_")
            if record.chapter != chapter or record.order // 1000 != chapter:
                problems.append(f"{where}: chapter/order must be {chapter} / {chapter}001…")
            if NAME_LIST.search(record.title):
                problems.append(f"{where}: title lists who was present; say what happened")
            if not record.participants:
                problems.append(f"{where}: no participants")
            for p in record.participants:
                if p.person not in people:
                    problems.append(f"{where}: unknown person id {p.person!r}")
                if p.role in ("", "participant"):
                    problems.append(f"{where}: participant {p.person} needs a role")
        elif isinstance(record, Relation):
            for pid in (record.source, record.target):
                if pid not in people:
                    problems.append(f"{where}: unknown person id {pid!r}")
            if record.source == record.target:
                problems.append(f"{where}: relation to oneself")
            for ev in record.events:
                if ev not in events:
                    problems.append(f"{where}: unknown event id {ev!r}")
            counts["vague"] += record.type in VAGUE
            chapters = [s.chapter for s in record.sources]
            if chapters != sorted(chapters):
                problems.append(f"{where}: sources must be in chapter order (first = where it "
                                "begins)")
        elif isinstance(record, State):
            if record.person not in people:
                problems.append(f"{where}: unknown person id {record.person!r}")
        elif isinstance(record, ChapterSummary) and (
                record.chapter != chapter or record.id != f"ch{chapter:03d}"):
            problems.append(f"{where}: chapter record must be id ch{chapter:03d}")
    if counts["chapter"] != 1:
        problems.append(f"{path.name}: needs exactly one chapter record (has {counts['chapter']})")
    return problems, counts


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("chapters", nargs="*", type=int, metavar="CHAPTER",
                        help="chapter numbers to check (default: every shard present)")
    chapters = parser.parse_args(argv).chapters or sorted(
        int(p.stem[2:]) for p in SHARDS.glob("ch*.jsonl"))
    people, events = known_people(), all_event_ids()
    failed = 0
    for chapter in chapters:
        if not (SHARDS / f"ch{chapter:03d}.jsonl").exists():
            print(f"ch{chapter:03d}: no shard")
            failed += 1
            continue
        problems, counts = check(chapter, people, events)
        summary = ", ".join(f"{k} {counts[k]}" for k in
                            ("chapter", "event", "relation", "state", "person", "vague"))
        print(f"ch{chapter:03d}: {'OK' if not problems else 'FAIL'} ({summary})")
        for problem in problems:
            print("   ", problem)
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
